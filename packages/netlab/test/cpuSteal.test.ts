import { describe, expect, it } from 'vitest';
import { cpuStealMeter, cpuTicks } from '../src/validate/cpuSteal.js';

describe("cpuSteal: the hypervisor's share of CPU time", () => {
  it('reads user..steal of the cpu line, not the per-CPU lines; guest time is not counted twice', () => {
    const stat = 'cpu0 50 2 25 400 5 0 2 15 0 0\ncpu  100 5 50 800 10 1 4 30 7 0\nintr 1\n';
    expect(cpuTicks(() => stat)).toEqual({ total: 1000, steal: 30 });
  });

  it('no cpu line, a short or garbled one, or no /proc: undefined, never a zero that would read as "no steal"', () => {
    expect(cpuTicks(() => 'intr 1\n')).toBeUndefined();
    expect(cpuTicks(() => 'cpu  1 2 3\n')).toBeUndefined();
    expect(cpuTicks(() => 'cpu  1 2 3 x 5 6 7 8\n')).toBeUndefined();
    expect(
      cpuTicks(() => {
        throw new Error('ENOENT');
      }),
    ).toBeUndefined();
  });

  it('the meter: steal over the interval as a share of all CPU time in it', () => {
    let steal = 30;
    let total = 1000;
    const meter = cpuStealMeter(() => `cpu  ${total - steal} 0 0 0 0 0 0 ${steal}\n`);
    expect(meter()).toBeUndefined(); // no time has passed on the counters
    total += 200;
    steal += 50;
    expect(meter()).toBe(0.25);
    expect(cpuStealMeter(() => 'intr 1\n')()).toBeUndefined();
  });

  it('reads this machine (Linux /proc/stat): a positive total, steal within it', () => {
    const t = cpuTicks();
    expect(t!.total).toBeGreaterThan(0);
    expect(t!.steal).toBeGreaterThanOrEqual(0);
    expect(t!.steal).toBeLessThanOrEqual(t!.total);
  });
});
