import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NetlabError } from '../errors/NetlabError.js';
import { distFile } from '../testbed/sh.js';
import type { ShaperStats } from './DirectionShaper.js';
import { relayExitMeaning } from './relayExitMeaning.js';
import type { FreezeStats } from './FreezeSchedule.js';
import type { LatenessSummary } from './LatenessHistogram.js';
import type { RelayConfig } from './relayMain.js';
import type { ThreadTimes } from './threadTimes.js';

/**
 * One direction's counters: the shaper's, and how late the relay sent (its own timing error).
 * Every datagram the relay read is `received` = `packets` (admitted) + `drops` (the modelled queue
 * or cell buffer) + `lossDrops` (modelled random loss); every admitted one is sent, dropped as
 * `ringFull`, or still waiting for its departure.
 */
export interface DirectionStats extends ShaperStats {
  /** Datagrams the relay read from its socket in this direction. */
  received: number;
  /** Datagrams it sent on (= lateness.count). */
  sent: number;
  lateness: LatenessSummary;
  /** With lateness injected (RelayConfig.lateness): each datagram's lateness beyond the freeze that held it, the box's own. */
  naturalLateness?: LatenessSummary;
  /** Datagrams dropped because the sending thread had fallen a whole 8 MB queue behind (the box, not the link). */
  ringFull: number;
  /** Bytes per user of a cell (RelayConfig.cell), user 0 first; absent with one user. */
  userBytes?: number[];
}

/** One link's counters, per direction (up: towards the origin, down: towards the client). */
export interface LinkStats {
  up: DirectionStats;
  down: DirectionStats;
  /** The queue between the relay's receiving and sending threads (both directions): its size and the most it held. */
  ring: { bytes: number; highWaterBytes: number };
  /** The freezes put into its sending thread, when lateness is injected. */
  injected?: FreezeStats;
  /** Its two threads' CPU time and time waiting for a CPU since they started (absent where the kernel keeps no schedstat). */
  threads?: { receiving: ThreadTimes; sending: ThreadTimes };
}

/** A running relay: its process and its counters. */
export interface Relay {
  process: ChildProcess;
  /** Its sending thread's id (for its priority); undefined where /proc/thread-self is missing. */
  senderTid?: number;
  stats(): Promise<LinkStats>;
  /** Marks the end as expected (the testbed is closing): its exit is not reported. */
  stopping(): void;
}

const RELAY = distFile(import.meta.url, './relayMain.js');

/**
 * Forks one link's relay process and resolves once both of its UDP sockets are bound. The config
 * goes in a file in `dir`, not on the command line: a mahimahi trace of 500k lines is megabytes
 * of JSON, far over Linux's 128 kB limit for one argument (spawn E2BIG).
 */
export async function startRelay(cfg: RelayConfig, dir: string, name: string): Promise<Relay> {
  const file = join(dir, `relay-${name}.json`);
  writeFileSync(file, JSON.stringify(cfg));
  const relay = fork(RELAY, [file], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const senderTid = await new Promise<number | undefined>((resolve, reject) => {
    relay.once('message', (m: { type: string; message?: string; senderTid?: number }) =>
      m.type === 'ready'
        ? resolve(m.senderTid)
        : reject(
            m.message?.includes('EADDRINUSE')
              ? new NetlabError('NETLAB_PORT_TAKEN', `relay ${name}: ${m.message}`, { relay: name })
              : new Error(`relay ${name}: ${m.message}`),
          ),
    );
    relay.once('error', reject);
    relay.once('exit', (c) => reject(new Error(`relay ${name} exited with ${c}`)));
  });
  // A relay that ends mid-run (a crash, SIGXCPU from its RLIMIT_RTTIME, a stray kill) takes its
  // link down: say so at once on stderr and in every later stats() call, with how it ended.
  let exited: NetlabError | undefined;
  // Before a SIGXCPU ends it, the relay says which of its threads was on a core (relayMain).
  let spin: string | undefined;
  relay.on('message', (m: { type: string; report?: string }) => void (m.type === 'spin' && (spin = m.report)));
  relay.once('exit', (code, signal) => {
    exited = new NetlabError(
      'NETLAB_RELAY_EXITED',
      `relay ${name} (pid ${relay.pid}) ended: ${signal ? `signal ${signal}` : `exit code ${code}`} — ${relayExitMeaning(code, signal)}; ${spin ? `${spin}; ` : ''}its link is down`,
      { name, code, signal, ...(spin ? { spin } : {}) },
    );
    if (!stopping) console.error(`netlab: ${exited.message}`);
  });
  let stopping = false;
  return {
    process: relay,
    ...(senderTid !== undefined ? { senderTid } : {}),
    stats: () => (exited ? Promise.reject(exited) : relayStats(relay, () => exited)),
    stopping: () => void (stopping = true),
  };
}

function relayStats(relay: ChildProcess, exited: () => NetlabError | undefined): Promise<LinkStats> {
  return new Promise<LinkStats>((resolve, reject) => {
    const done = () => {
      relay.off('message', on);
      relay.off('exit', gone);
    };
    const on = (m: { type: string } & LinkStats) => {
      if (m.type !== 'stats') return;
      done();
      resolve({
        up: m.up,
        down: m.down,
        ring: m.ring,
        ...(m.injected ? { injected: m.injected } : {}),
        ...(m.threads ? { threads: m.threads } : {}),
      });
    };
    const gone = () => {
      done();
      reject(exited() ?? new NetlabError('NETLAB_RELAY_EXITED', `relay (pid ${relay.pid}) ended before answering`));
    };
    relay.on('message', on);
    relay.once('exit', gone);
    relay.send({ type: 'stats' }, (e) => {
      if (!e) return;
      done();
      reject(exited() ?? e);
    });
  });
}
