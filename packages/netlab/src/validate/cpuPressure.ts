import { readFileSync } from 'node:fs';

/**
 * The kernel's CPU pressure stall information (/proc/pressure/cpu, "some" line): the total time,
 * µs, during which at least one runnable task waited for a CPU. Its growth over a run, divided by
 * the run's length, is how busy the box was for everything that is not real-time (the origin,
 * the edge, the receivers) — the relays' own lateness covers the links. Undefined where the kernel
 * has no PSI.
 */
export function cpuPressureTotalUs(read: () => string = () => readFileSync('/proc/pressure/cpu', 'utf8')): number | undefined {
  try {
    const m = /^some .*\btotal=(\d+)/m.exec(read());
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts a measurement; the function it returns gives the share of wall time under CPU pressure
 * since. `read` and `nowMs` stand in for the kernel file and the clock in tests.
 */
export function cpuPressureMeter(read?: () => string, nowMs: () => number = () => performance.now()): () => number | undefined {
  const us0 = cpuPressureTotalUs(read);
  const t0 = nowMs();
  return () => {
    const us1 = cpuPressureTotalUs(read);
    const ms = nowMs() - t0;
    if (us0 === undefined || us1 === undefined || !(ms > 0)) return undefined;
    return Math.min(1, Math.max(0, (us1 - us0) / 1000 / ms));
  };
}
