import { NetlabError } from '../errors/NetlabError.js';
import { sh } from './sh.js';

/**
 * Real-time priority for a process on the packets' path (a relay, a socat): SCHED_FIFO for every
 * thread (`chrt -a`), so a busy CPU — Chromium decoding, a test hog, other users of the machine —
 * cannot hold a datagram back; the process still sleeps between packets, and the kernel's RT
 * throttling (sched_rt_runtime_us, 95 % by default) keeps a runaway one from freezing the box.
 * Priority 50 sits above every normal task and below the kernel's own RT threads (99).
 */
export async function makeRealtime(pid: number, priority = 50): Promise<void> {
  try {
    await sh('chrt', ['-a', '-f', '-p', String(priority), String(pid)]);
  } catch (e) {
    throw new NetlabError('NETLAB_REALTIME', `cannot give process ${pid} real-time priority (${(e as Error).message}); createTestbed({ realtime: false }) runs without it, and the relays' lateness statistics then show whether a run was disturbed`, { pid });
  }
}
