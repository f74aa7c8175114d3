import { readFileSync, readlinkSync } from 'node:fs';

/**
 * A thread's time since it started, from the kernel's scheduler statistics
 * (`/proc/<pid>/task/<tid>/schedstat`: ns on a CPU, ns runnable but waiting for one, timeslices).
 * `waitMs` is what tells a late relay apart: time its thread was ready to send and no core ran it
 * (other real-time threads of the testbed at its priority, the kernel's own), where lateness with
 * little wait is the machine stopping underneath (a vCPU descheduled, which no counter inside
 * the VM sees).
 */
export interface ThreadTimes {
  runMs: number;
  waitMs: number;
  /** Times it was put on a CPU: waitMs / runs is its mean wait per wake-up (a datagram's hidden delay, for a receiving thread). */
  runs: number;
}

/** Parses one schedstat line; undefined if it is not three numbers. */
export function parseSchedstat(text: string): ThreadTimes | undefined {
  const f = text.trim().split(/\s+/).map(Number);
  if (f.length < 3 || !f.slice(0, 3).every(Number.isFinite)) return undefined;
  return { runMs: f[0]! / 1e6, waitMs: f[1]! / 1e6, runs: f[2]! };
}

/** The calling thread's id (a worker thread's own, unlike process.pid): what `chrt -p` and schedstat name it by. */
export function ownThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isSafeInteger(tid) ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** One thread's times; undefined where the kernel has no schedstat (CONFIG_SCHEDSTATS off) or the thread is gone. */
export function threadTimes(pid: number, tid: number): ThreadTimes | undefined {
  try {
    return parseSchedstat(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8'));
  } catch {
    return undefined;
  }
}
