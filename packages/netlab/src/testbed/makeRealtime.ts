import { NetlabError } from '../errors/NetlabError.js';
import { sh } from './sh.js';

/** SCHED_FIFO priority of every thread on the packets' path (relays, socats): above every normal task, below the kernel's own RT threads (99). */
export const PATH_PRIORITY = 50;

/**
 * A relay's sending thread's priority, above the path's: measured on the quiet box (50M-2s auto at
 * 137 ms, 3 runs each), senders at 50 waited 6.1-6.5 s per run for a core and sent p99 2.5-6.6 ms
 * late; at 60 they waited 0.04-0.1 s and sent p99 0.4-3.6 ms late (docs/netlab.md).
 */
export const DEFAULT_SENDER_PRIORITY = 60;

/** How a process on the packets' path runs at real-time priority. */
export interface RealtimeOptions {
  /** SCHED_FIFO priority: 50 sits above every normal task and below the kernel's own RT threads (99). */
  priority?: number;
  /**
   * The longest a thread of it may stay on a core without sleeping (RLIMIT_RTTIME), ms. A relay
   * sleeps between packets many times a millisecond; one that spins this long is broken (a wedged
   * loop, an orphan reading a dead socket) and, at real-time priority, starves the whole box —
   * seen once: two such relays held a core each for ten minutes. The kernel sends SIGXCPU at this
   * limit (which ends a Node process or socat) and SIGKILL a second later. Default 10 s: far above
   * anything a working relay does, even one saturated with traffic.
   */
  maxSpinMs?: number;
}

/**
 * Real-time priority for a process on the packets' path (a relay, a socat): SCHED_FIFO for every
 * thread (`chrt -a`), so a busy CPU — Chromium decoding, a test hog, other users of the machine —
 * cannot hold a datagram back; the process still sleeps between packets. Bounded twice: the
 * kernel's RT throttling (sched_rt_runtime_us, 95 % by default) leaves the box a sliver, and
 * RLIMIT_RTTIME ends a process that spins without sleeping (options.maxSpinMs).
 */
export async function makeRealtime(pid: number, options: RealtimeOptions = {}): Promise<void> {
  const priority = options.priority ?? PATH_PRIORITY;
  const spinUs = Math.round((options.maxSpinMs ?? 10_000) * 1000);
  try {
    // The limit first: the process must never run at RT priority without it.
    await sh('prlimit', [`--pid=${pid}`, `--rttime=${spinUs}:${spinUs + 1_000_000}`]);
    await sh('chrt', ['-a', '-f', '-p', String(priority), String(pid)]);
  } catch (e) {
    throw new NetlabError(
      'NETLAB_REALTIME',
      `cannot give process ${pid} real-time priority (${(e as Error).message}); createTestbed({ realtime: false }) runs without it, and the relays' lateness statistics then show whether a run was disturbed`,
      { pid },
    );
  }
}

/**
 * One thread of a process already made real-time (makeRealtime) at another SCHED_FIFO priority:
 * a relay's sending thread above the forwarding threads, so a departure that falls due preempts
 * their work instead of queueing behind it (FIFO threads of one priority never preempt each other).
 * The process's RLIMIT_RTTIME still bounds it.
 */
export async function setThreadPriority(tid: number, priority: number): Promise<void> {
  try {
    await sh('chrt', ['-f', '-p', String(priority), String(tid)]);
  } catch (e) {
    throw new NetlabError('NETLAB_REALTIME', `cannot give thread ${tid} real-time priority ${priority} (${(e as Error).message})`, {
      tid,
      priority,
    });
  }
}
