import { readFileSync } from 'node:fs';

/** The machine's CPU time counters (clock ticks, all CPUs) from the first line of /proc/stat. */
export interface CpuTimes {
  total: number;
  /** Time the hypervisor ran something else while our vCPUs wanted to run. */
  steal: number;
}

/** Reads /proc/stat's `cpu` line: user nice system idle iowait irq softirq steal (guest time is inside user). */
export function readCpuTimes(stat: string = readFileSync('/proc/stat', 'utf8')): CpuTimes {
  const line = stat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('readCpuTimes: no "cpu" line in /proc/stat');
  const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
  return { total: f.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0), steal: f[7] ?? 0 };
}

/**
 * The share of CPU time stolen by the hypervisor between two readings (0–1). Real-time priority
 * protects the relays from every process on this machine, but not from the host descheduling the
 * whole vCPU; while steal is high, a relay's lateness measures the host, not the relay.
 */
export function stealShare(a: CpuTimes, b: CpuTimes): number {
  const total = b.total - a.total;
  return total > 0 ? Math.max(0, b.steal - a.steal) / total : 0;
}
