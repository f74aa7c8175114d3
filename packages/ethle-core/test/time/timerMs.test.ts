import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TIMER_MS, secondsToTimerMs, timerMs } from '@ethle/core';

describe('timerMs: one rounding for every duration on its way to a timer', () => {
  it('rounds the durations origins write up to whole ms, ignoring float noise', () => {
    expect(secondsToTimerMs(4 * 4.004)).toBe(16_016); // 16016.000000000002 in floats
    expect(secondsToTimerMs(4 * 4.00008)).toBe(16_001); // 16000.32
    expect(secondsToTimerMs(4 * 8.008)).toBe(32_032);
    expect(secondsToTimerMs(4 * 3.6036)).toBe(14_415); // 14414.4
    expect(secondsToTimerMs((4 * 360_360) / 90_000)).toBe(16_016);
    expect(secondsToTimerMs(1.00002)).toBe(1001);
    expect(timerMs(0)).toBe(0);
    expect(timerMs(-5)).toBe(0);
    expect(timerMs(1e12)).toBe(MAX_TIMER_MS);
    expect(timerMs(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
    expect(() => timerMs(Number.NaN)).toThrow(expect.objectContaining({ code: 'ERR_TIMER_INVALID' }));
  });

  it('any finite duration: a whole number in [0, 2^31 − 1], never shorter than asked (beyond float noise), less than 1 ms longer', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e15, max: 1e15, noNaN: true }), (ms) => {
        const t = timerMs(ms);
        expect(Number.isInteger(t)).toBe(true);
        expect(t).toBeGreaterThanOrEqual(0);
        expect(t).toBeLessThanOrEqual(MAX_TIMER_MS);
        if (ms > 0 && ms < MAX_TIMER_MS) {
          expect(t).toBeGreaterThanOrEqual(ms - 1e-6);
          expect(t).toBeLessThan(ms + 1);
        }
      }),
    );
  });

  it('a timescale/duration pair (DASH) or a decimal EXTINF × k segments: AbortSignal.timeout() and setTimeout() take the result', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }), // timescale
        fc.integer({ min: 1, max: 2 ** 40 }), // duration in ticks
        fc.integer({ min: 1, max: 8 }),
        (timescale, ticks, k) => {
          const t = secondsToTimerMs((k * ticks) / timescale);
          // Throws on a fraction or on more than 2^32 − 1: the bug this helper exists for.
          AbortSignal.timeout(t);
          expect(t).toBeLessThanOrEqual(MAX_TIMER_MS);
        },
      ),
    );
  });
});
