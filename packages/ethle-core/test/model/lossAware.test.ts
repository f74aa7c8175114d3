import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideHold, mathisThroughputBps, modelHold } from '@ethle/core';

// Mathis is the bound of loss-based congestion control (Reno, CUBIC): BBR keeps its rate under
// random loss of a few percent, so these x are what a loss-based origin needs, not a BBR one.
// Japan, 224 ms, the paper's model (IW 1, MSS 1448, th_ran 60 Mbit/s); Table I segment sizes.
const JAPAN = { rttSeconds: 0.224, segmentSeconds: 2, ranBps: 60e6, initialWindowSegments: 1, maxHold: 100 };
const CELLS = [
  { stream: '15M-2s', segmentBytes: 3.7e6, bitrateBps: 15e6 },
  { stream: '50M-2s', segmentBytes: 12.2e6, bitrateBps: 50e6 },
] as const;

describe('loss-aware model: th_bh = min(slow start, window, Mathis)', () => {
  it('Mathis at 224 ms: 2.00 Mbit/s at 0.1 % loss, 0.90 at 0.5 %, 0.63 at 1 %', () => {
    expect(mathisThroughputBps({ rttSeconds: 0.224, lossRate: 0.001 }) / 1e6).toBeCloseTo(2.003, 3);
    expect(mathisThroughputBps({ rttSeconds: 0.224, lossRate: 0.005 }) / 1e6).toBeCloseTo(0.896, 3);
    expect(mathisThroughputBps({ rttSeconds: 0.224, lossRate: 0.01 }) / 1e6).toBeCloseTo(0.633, 3);
  });

  // eq. 2: x = ceil(s·8 / (th_bh · l)). 15M-2s: 29.6 Mbit per 2 s; 50M-2s: 97.6 Mbit per 2 s.
  it.each([
    // stream, loss, x: lossless is Table III's 2; then 29.6/(2.003·2) = 7.4 → 8, 16.5 → 17, 23.4 → 24
    ['15M-2s', 0, 2],
    ['15M-2s', 0.001, 8],
    ['15M-2s', 0.005, 17],
    ['15M-2s', 0.01, 24],
    // 97.6/(2.003·2) = 24.4 → 25, 54.5 → 55, 77.0 → 78
    ['50M-2s', 0, 2],
    ['50M-2s', 0.001, 25],
    ['50M-2s', 0.005, 55],
    ['50M-2s', 0.01, 78],
  ] as const)('%s with %f loss needs x = %i', (stream, lossRate, x) => {
    const cell = CELLS.find((c) => c.stream === stream)!;
    const r = modelHold({ ...JAPAN, ...cell, lossRate });
    expect(r.streamHold).toBe(x);
    expect(r.backhaul.limitedBy).toBe(lossRate === 0 ? 'slow-start' : 'loss');
  });

  it("above the operator's cap the edge holds x_max and says QoE is not assured", () => {
    const r = modelHold({ ...JAPAN, ...CELLS[0], lossRate: 0.001, maxHold: 4 });
    expect(r).toMatchObject({ hold: 4, streamHold: 8, assured: false, reason: 'capped-at-max-hold' });
  });

  it('a loss too small to bind leaves the slow-start x (15M-2s, 0.001 %: Mathis 20 Mbit/s > 11.7)', () => {
    const r = modelHold({ ...JAPAN, ...CELLS[0], lossRate: 1e-5 });
    expect(r.backhaul.limitedBy).toBe('slow-start');
    expect(r.streamHold).toBe(2);
  });

  it('decideHold caps a measured rate by Mathis too: a warm 45.6 Mbit/s flow with 0.1 % loss counts as 2.0', () => {
    const d = decideHold({
      segmentBytes: 3.7e6,
      segmentSeconds: 2,
      backhaulBps: 45.6e6,
      ranBps: 60e6,
      maxHold: 100,
      rttSeconds: 0.224,
      lossRate: 0.001,
    });
    expect(d.backhaulLimitedBy).toBe('loss');
    expect(d.backhaulBps / 1e6).toBeCloseTo(2.003, 3);
    expect(d.streamHold).toBe(8);
    expect(decideHold({ segmentBytes: 3.7e6, segmentSeconds: 2, backhaulBps: 45.6e6, ranBps: 60e6, maxHold: 100 }).streamHold).toBe(1);
  });

  it('property: x never falls as the loss rate rises, in either cell, with or without a window', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 0.05, noNaN: true }),
        fc.double({ min: 0, max: 0.05, noNaN: true }),
        fc.constantFrom(...CELLS),
        fc.option(fc.double({ min: 1e5, max: 1e8, noNaN: true }), { nil: undefined }),
        (p1, p2, cell, sendWindowBytes) => {
          const [lo, hi] = p1 <= p2 ? [p1, p2] : [p2, p1];
          const a = modelHold({ ...JAPAN, ...cell, lossRate: lo, sendWindowBytes });
          const b = modelHold({ ...JAPAN, ...cell, lossRate: hi, sendWindowBytes });
          expect(b.streamHold).toBeGreaterThanOrEqual(a.streamHold);
          expect(b.backhaul.bps).toBeLessThanOrEqual(a.backhaul.bps * (1 + 1e-12));
        },
      ),
    );
  });
});
