import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EthleError,
  initialStreamHold,
  MAX_DWELL_SCALE,
  nextStreamHold,
  raiseStreamHold,
  type StreamHoldOptions,
  type StreamHoldState,
} from '@ethle/core';

// 15M-2s: 29.6 Mbit a segment. eq. 2 needs 14.8 Mbit/s per flow for x = 1, 7.4 for 2, 4.93 for 3,
// 3.7 for 4. The model says x = 2 (Table III), the operator allows 4.
const OPTS: StreamHoldOptions = {
  segmentBytes: 3.7e6,
  segmentSeconds: 2,
  modelHold: 2,
  maxHold: 4,
  dwellSegments: 4,
  dwellSamples: 3,
  margin: 0.2,
};

/** Feeds samples (Mbit/s at ms) and returns x after each. */
function run(samples: Array<[atMs: number, mbps: number | undefined]>, opts: StreamHoldOptions = OPTS, start?: StreamHoldState) {
  let state = start ?? initialStreamHold(opts);
  return samples.map(([at, mbps]) => {
    const step = nextStreamHold(state, mbps === undefined ? undefined : { backhaulBps: mbps * 1e6 }, at, opts);
    state = step.state;
    return step;
  });
}

describe('nextStreamHold: x both ways within hold-x', () => {
  it("starts at the model's x", () => {
    expect(initialStreamHold(OPTS)).toEqual({ hold: 2, lowerSinceMs: undefined, lowerSamples: 0 });
    expect(initialStreamHold({ modelHold: 6, maxHold: 4 }).hold).toBe(4);
  });

  it('a slow patch raises x at once, to what the sample needs', () => {
    // 4 Mbit/s: ⌈29.6 / (4·2)⌉ = 4.
    const [a] = run([[0, 4]]);
    expect(a).toMatchObject({ hold: 4, change: 'raise', reason: 'measured-slow', sampleHold: 4 });
    // 6 Mbit/s needs 3: raised from 2 to 3 directly, not via a dwell.
    expect(run([[0, 6]])[0]).toMatchObject({ hold: 3, change: 'raise' });
  });

  it('recovery lowers x by one only after 4 segment periods and 3 supporting samples, then dwells again', () => {
    // Raised to 4 at 0 s; then 20 Mbit/s every 2 s supports 3 (needs 1.2 × 4.93 = 5.9).
    // The dwell runs from the first supporting sample (2 s) to 10 s; the next one starts after the
    // change, with the sample at 12 s, and ends at 20 s.
    const at = (ms: number[]) => ms.map((t): [number, number] => [t, 20]);
    const steps = run([[0, 4], ...at([2000, 4000, 6000, 8000, 10000, 12000, 14000, 16000, 18000, 20000])]);
    expect(steps.map((s) => s.hold)).toEqual([4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 2]);
    expect(steps[5]).toMatchObject({ change: 'lower', reason: 'recovered' });
    expect(steps[4]).toMatchObject({ change: 'none', reason: 'dwelling' });
    // Down to the model's x and no further: 20 Mbit/s would carry x = 1 (needs 17.8), the model says 2.
    expect(run(at([30000, 40000, 50000, 60000]), OPTS, steps[10]!.state).map((s) => s.hold)).toEqual([2, 2, 2, 2]);
  });

  it('a lower undone within two dwells doubles the next dwell (up to 8×); a raise long after resets it', () => {
    // Dwell: 4 periods × 2 s = 8 s. Raised to 3 at 0 s, 20 Mbit/s supports 2 from 2 s: lowered at 10 s.
    const every2s = (from: number, to: number): Array<[number, number]> =>
      Array.from({ length: (to - from) / 2000 + 1 }, (_, i) => [from + i * 2000, 20]);
    const first = run([[0, 6], ...every2s(2000, 10000)]);
    expect(first.at(-1)).toMatchObject({ hold: 2, change: 'lower' });
    // 6 Mbit/s at 14 s (4 s after the lower, within 2 × 8 s) raises to 3 again: a flap.
    const flap = run([[14000, 6]], OPTS, first.at(-1)!.state)[0]!;
    expect(flap).toMatchObject({ hold: 3, change: 'raise' });
    expect(flap.state.dwellScale).toBe(2);
    // The next lower now needs 16 s of support, not 8: still 3 at 24 s (8 s in), 2 at 32 s.
    const slower = run(every2s(16000, 32000), OPTS, flap.state);
    expect(slower.find((s) => s.change === 'lower')).toMatchObject({ reason: 'recovered' });
    expect(slower.findIndex((s) => s.change === 'lower')).toBe(8);
    // Flapping on: 2×, 4×, 8×, and no further.
    let st = flap.state;
    for (let i = 0; i < 5; i++) st = raiseStreamHold({ ...st, hold: 2, loweredAtMs: 100_000 * (i + 1) }, 3, 100_000 * (i + 1) + 1000, 8000);
    expect(st.dwellScale).toBe(MAX_DWELL_SCALE);
    // A raise long after the lower (the lower held): the dwell is back to its length.
    expect(raiseStreamHold({ ...st, hold: 2, loweredAtMs: 0 }, 3, 10 * 8000 * MAX_DWELL_SCALE, 8000).dwellScale).toBe(1);
    // Without a lower before it, a raise is no flap.
    expect(raiseStreamHold(initialStreamHold(OPTS), 3, 1000, 8000).dwellScale).toBe(1);
  });

  it('one sample that does not support x − 1 restarts the dwell', () => {
    const steps = run([
      [0, 4],
      [2000, 20],
      [4000, 20],
      [6000, 5.5],
      [8000, 20],
      [10000, 20],
      [12000, 20],
      [14000, 20],
      [16000, 20],
    ]);
    // 5.5 Mbit/s needs 3 (no raise) but is within the 20 % margin of 3's 4.93: no support. The
    // dwell starts again at 8 s and ends at 16 s.
    expect(steps[3]).toMatchObject({ hold: 4, change: 'none', reason: 'steady' });
    expect(steps.map((s) => s.hold)).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 3]);
  });

  it('samples alone are not enough: the dwell is time too, and time alone is not enough either', () => {
    // Ten supporting samples within 1 s (a burst of fetches): no lowering.
    const burst = run([[0, 4], ...Array.from({ length: 10 }, (_, i): [number, number] => [100 + i * 100, 20])]);
    expect(burst.at(-1)!.hold).toBe(4);
    // Two samples 20 s apart: the time is there, the samples are not.
    expect(
      run([
        [0, 4],
        [10000, 20],
        [30000, 20],
      ]).at(-1)!.hold,
    ).toBe(4);
    // A tick without a sample neither lowers nor breaks the run.
    expect(
      run([
        [0, 4],
        [2000, 20],
        [4000, 20],
        [9000, undefined],
        [10000, 20],
      ]).map((s) => s.hold),
    ).toEqual([4, 4, 4, 4, 3]);
  });

  it("follows the model's x up at once and the operator's cap down at once", () => {
    const start: StreamHoldState = { hold: 2, lowerSinceMs: undefined, lowerSamples: 0 };
    expect(nextStreamHold(start, undefined, 0, { ...OPTS, modelHold: 3 })).toMatchObject({
      hold: 3,
      change: 'raise',
      reason: 'model-floor',
    });
    expect(nextStreamHold({ ...start, hold: 4 }, undefined, 0, { ...OPTS, maxHold: 3 })).toMatchObject({
      hold: 3,
      change: 'lower',
      reason: 'max-hold',
    });
    // A sample asking for more than x_max gets x_max (1 Mbit/s: ⌈29.6 / 2⌉ = 15).
    expect(nextStreamHold(start, { backhaulBps: 1e6 }, 0, OPTS)).toMatchObject({ hold: 4, sampleHold: 15 });
  });

  it('bad options or state are coded errors', () => {
    const s = initialStreamHold(OPTS);
    for (const bad of [{ segmentSeconds: 0 }, { maxHold: 1.5 }, { dwellSamples: 0 }, { margin: -1 }]) {
      expect(() => nextStreamHold(s, undefined, 0, { ...OPTS, ...bad })).toThrow(EthleError);
    }
    expect(() => nextStreamHold(s, { backhaulBps: 0 }, 0, OPTS)).toThrow(/backhaulBps/);
    expect(() => nextStreamHold({ ...s, hold: -1 }, undefined, 0, OPTS)).toThrow(/state.hold/);
  });
});

describe('nextStreamHold invariants under flapping samples', () => {
  const arb = fc.record({
    modelHold: fc.integer({ min: 0, max: 4 }),
    maxHold: fc.integer({ min: 1, max: 8 }),
    dwellSegments: fc.integer({ min: 1, max: 6 }),
    dwellSamples: fc.integer({ min: 1, max: 5 }),
    // Samples alternate between fast and slow patches at irregular times.
    samples: fc.array(
      fc.tuple(fc.integer({ min: 0, max: 5000 }), fc.option(fc.double({ min: 1, max: 100, noNaN: true }), { nil: undefined })),
      { minLength: 1, maxLength: 80 },
    ),
  });

  it('x stays within [model x, x_max], rises at once to what a sample needs, and falls by one at most once per dwell', () => {
    fc.assert(
      fc.property(arb, (a) => {
        const opts: StreamHoldOptions = {
          ...OPTS,
          modelHold: a.modelHold,
          maxHold: a.maxHold,
          dwellSegments: a.dwellSegments,
          dwellSamples: a.dwellSamples,
        };
        const floor = Math.min(a.modelHold, a.maxHold);
        const dwellMs = a.dwellSegments * opts.segmentSeconds * 1000;
        let state = initialStreamHold(opts);
        let now = 0;
        let lastChangeMs = 0;
        let samplesSinceChange = 0;
        for (const [gap, mbps] of a.samples) {
          now += gap;
          const before = state.hold;
          const step = nextStreamHold(state, mbps === undefined ? undefined : { backhaulBps: mbps * 1e6 }, now, opts);
          state = step.state;
          if (mbps !== undefined) samplesSinceChange += 1;
          expect(step.hold).toBe(state.hold);
          expect(step.hold).toBeGreaterThanOrEqual(floor);
          expect(step.hold).toBeLessThanOrEqual(a.maxHold);
          // Never holds less than the latest sample needs (up to the cap).
          if (step.sampleHold !== undefined) expect(step.hold).toBeGreaterThanOrEqual(Math.min(step.sampleHold, a.maxHold));
          if (step.change === 'raise') expect(step.hold).toBeGreaterThan(before);
          if (step.change === 'lower') {
            expect(step.hold).toBe(before - 1);
            // The lower x was supported for the whole dwell, which started after the last change.
            expect(now - lastChangeMs).toBeGreaterThanOrEqual(dwellMs);
            expect(samplesSinceChange).toBeGreaterThanOrEqual(a.dwellSamples);
          }
          if (step.change !== 'none') {
            lastChangeMs = now;
            samplesSinceChange = 0;
          }
        }
      }),
    );
  });

  it('a constant rate gives a constant x once settled (no oscillation)', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 100, noNaN: true }), fc.integer({ min: 0, max: 4 }), (mbps, modelHold) => {
        const opts = { ...OPTS, modelHold, maxHold: 8 };
        let state = initialStreamHold(opts);
        const xs: number[] = [];
        for (let i = 0; i < 200; i++) {
          state = nextStreamHold(state, { backhaulBps: mbps * 1e6 }, i * 2000, opts).state;
          xs.push(state.hold);
        }
        // Monotone after the first step: up once, or down step by step, never both.
        const tail = xs.slice(1);
        const up = tail.some((x, i) => i > 0 && x > tail[i - 1]!);
        const down = tail.some((x, i) => i > 0 && x < tail[i - 1]!);
        expect(up && down).toBe(false);
        expect(xs.slice(-20).every((x) => x === xs.at(-1))).toBe(true);
      }),
    );
  });
});
