import { describe, expect, it } from 'vitest';
import { readCpuTimes, stealShare } from '../src/validate/cpuSteal.js';

describe('cpuSteal: the hypervisor\'s share of CPU time between two /proc/stat readings', () => {
  it('reads user..steal of the cpu line, not the per-CPU lines; guest time is not counted twice', () => {
    const stat = 'cpu  100 5 50 800 10 1 4 30 7 0\ncpu0 50 2 25 400 5 0 2 15 0 0\nintr 1\n';
    expect(readCpuTimes(stat)).toEqual({ total: 1000, steal: 30 });
  });

  it('steal over the interval, as a share of all CPU time in it', () => {
    const a = { total: 1000, steal: 30 };
    expect(stealShare(a, { total: 1200, steal: 80 })).toBe(0.25);
    expect(stealShare(a, { total: 1200, steal: 30 })).toBe(0);
    expect(stealShare(a, a)).toBe(0);
  });

  it('a /proc/stat without a cpu line is an error, not a zero', () => {
    expect(() => readCpuTimes('intr 1\n')).toThrow(/no "cpu" line/);
  });

  it('reads this machine (Linux): counters that only grow', () => {
    const a = readCpuTimes();
    const b = readCpuTimes();
    expect(b.total).toBeGreaterThanOrEqual(a.total);
    expect(stealShare(a, b)).toBeGreaterThanOrEqual(0);
  });
});
