import { describe, expect, it } from 'vitest';
import { cpuPressureMeter, cpuPressureTotalUs } from '../src/validate/cpuPressure.js';

describe('cpuPressure', () => {
  it('reads the "some" total of /proc/pressure/cpu, not the "full" one', () => {
    const text = 'some avg10=20.26 avg60=20.57 avg300=16.37 total=95315687\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n';
    expect(cpuPressureTotalUs(() => text)).toBe(95315687);
  });

  it('is undefined where the kernel has no PSI (no file, or no some line)', () => {
    expect(
      cpuPressureTotalUs(() => {
        throw new Error('ENOENT');
      }),
    ).toBeUndefined();
    expect(cpuPressureTotalUs(() => 'full avg10=0 total=5\n')).toBeUndefined();
  });

  it('the share of wall time under pressure, within [0, 1]; undefined before any time passed', () => {
    let total = 1_000_000;
    let now = 5_000;
    const meter = cpuPressureMeter(
      () => `some avg10=0 avg60=0 avg300=0 total=${total}\n`,
      () => now,
    );
    expect(meter()).toBeUndefined();
    now += 50;
    total += 10_000; // 10 ms of pressure in 50 ms
    expect(meter()).toBeCloseTo(0.2, 10);
    total += 10_000_000; // more pressure than time: clamped
    expect(meter()).toBe(1);
  });
});
