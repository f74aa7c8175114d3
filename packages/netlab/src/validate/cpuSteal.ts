import { readFileSync } from 'node:fs';

/**
 * The machine's CPU time counters from /proc/stat's `cpu` line (clock ticks, all CPUs): user nice
 * system idle iowait irq softirq steal; guest time is already inside user. Undefined where there is
 * no such line (not Linux).
 */
export function cpuTicks(read: () => string = () => readFileSync('/proc/stat', 'utf8')): { total: number; steal: number } | undefined {
  try {
    const m = /^cpu +(.*)$/m.exec(read());
    if (!m) return undefined;
    const f = m[1]!.trim().split(/\s+/).slice(0, 8).map(Number);
    if (f.length < 8 || !f.every(Number.isFinite)) return undefined;
    return { total: f.reduce((a, b) => a + b, 0), steal: f[7]! };
  } catch {
    return undefined;
  }
}

/**
 * Starts a measurement; the function it returns gives the share of CPU time the hypervisor stole
 * since (0–1), as cpuPressureMeter does for PSI. Real-time priority protects the relays from
 * every process on this machine, but not from the host descheduling the whole vCPU: while steal is
 * high, a relay's lateness measures the host, not the relay.
 */
export function cpuStealMeter(read?: () => string): () => number | undefined {
  const a = cpuTicks(read);
  return () => {
    const b = cpuTicks(read);
    if (!a || !b || !(b.total > a.total)) return undefined;
    return Math.min(1, Math.max(0, (b.steal - a.steal) / (b.total - a.total)));
  };
}
