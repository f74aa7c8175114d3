import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EthleError, backhaulThroughput, decideHold, mathisThroughputBps, modelHold, slowStartDeliverySeconds } from '@ethle/core';

const bytes = fc.double({ min: 1e3, max: 1e9, noNaN: true });
const rtt = fc.double({ min: 0.001, max: 1, noNaN: true });
const iw = fc.integer({ min: 1, max: 100 });

describe('slowStartDeliverySeconds', () => {
  it('doubles per RTT from IW: one IW takes one round, three IW two rounds', () => {
    const w = 10 * 1448;
    expect(slowStartDeliverySeconds({ bytes: w, rttSeconds: 0.1 })).toBeCloseTo(0.1, 12);
    expect(slowStartDeliverySeconds({ bytes: 3 * w, rttSeconds: 0.1 })).toBeCloseTo(0.2, 12);
    expect(slowStartDeliverySeconds({ bytes: 3 * w, rttSeconds: 0.1, includeRequestRtt: true, newConnection: true })).toBeCloseTo(0.4, 12);
  });

  it('is monotone in bytes and in RTT', () => {
    fc.assert(
      fc.property(bytes, bytes, rtt, rtt, (b1, b2, r1, r2) => {
        const [bl, bh] = b1 <= b2 ? [b1, b2] : [b2, b1];
        const [rl, rh] = r1 <= r2 ? [r1, r2] : [r2, r1];
        expect(slowStartDeliverySeconds({ bytes: bl, rttSeconds: rl })).toBeLessThanOrEqual(
          slowStartDeliverySeconds({ bytes: bh, rttSeconds: rl }) + 1e-12,
        );
        expect(slowStartDeliverySeconds({ bytes: bl, rttSeconds: rl })).toBeLessThanOrEqual(
          slowStartDeliverySeconds({ bytes: bl, rttSeconds: rh }) + 1e-12,
        );
      }),
    );
  });

  it('a larger initial window is never slower', () => {
    fc.assert(
      fc.property(bytes, rtt, iw, iw, (b, r, a, c) => {
        const [lo, hi] = a <= c ? [a, c] : [c, a];
        expect(slowStartDeliverySeconds({ bytes: b, rttSeconds: r, initialWindowSegments: hi })).toBeLessThanOrEqual(
          slowStartDeliverySeconds({ bytes: b, rttSeconds: r, initialWindowSegments: lo }) + 1e-12,
        );
      }),
    );
  });

  it('a bottleneck never makes delivery faster, and never beats bytes/bottleneck', () => {
    fc.assert(
      fc.property(bytes, rtt, iw, fc.double({ min: 1e5, max: 1e10, noNaN: true }), (b, r, w, bps) => {
        const free = slowStartDeliverySeconds({ bytes: b, rttSeconds: r, initialWindowSegments: w });
        const capped = slowStartDeliverySeconds({ bytes: b, rttSeconds: r, initialWindowSegments: w, bottleneckBps: bps });
        expect(capped).toBeGreaterThanOrEqual(free - 1e-9);
        expect(capped).toBeGreaterThanOrEqual((b * 8) / bps - 1e-9);
      }),
    );
  });

  it('units: scaling bytes and the bottleneck together by k keeps the bottleneck-bound part consistent', () => {
    // 1 Gbit at 10 Mbit/s bottleneck with a tiny RTT is ~100 s whatever the slow-start prefix.
    const t = slowStartDeliverySeconds({ bytes: 125e6, rttSeconds: 0.001, bottleneckBps: 10e6 });
    expect(t).toBeGreaterThan(99.9);
    expect(t).toBeLessThan(100.1);
  });

  it('rejects garbage with ERR_MODEL_INVALID_INPUT', () => {
    for (const bad of [
      { bytes: -1, rttSeconds: 0.1 },
      { bytes: 1e6, rttSeconds: 0 },
      { bytes: Number.NaN, rttSeconds: 0.1 },
      { bytes: 1e6, rttSeconds: 3600 },
    ]) {
      try {
        slowStartDeliverySeconds(bad);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(EthleError);
        expect((e as EthleError).code).toBe('ERR_MODEL_INVALID_INPUT');
      }
    }
  });
});

describe('Mathis cap', () => {
  it('matches sqrt(3/2)·MSS/(RTT·sqrt(p))', () => {
    expect(mathisThroughputBps({ rttSeconds: 0.1, lossRate: 0.01, mssBytes: 1448 })).toBeCloseTo(
      (Math.sqrt(1.5) * 1448 * 8) / (0.1 * 0.1),
      6,
    );
  });
  it('only ever lowers the backhaul estimate', () => {
    fc.assert(
      fc.property(bytes, rtt, fc.double({ min: 1e-6, max: 0.5, noNaN: true }), (b, r, p) => {
        const clean = backhaulThroughput({ bytes: b, rttSeconds: r });
        const lossy = backhaulThroughput({ bytes: b, rttSeconds: r, lossRate: p });
        expect(lossy.bps).toBeLessThanOrEqual(clean.bps * (1 + 1e-12));
      }),
    );
  });
});

describe('decideHold (eq. 1–3)', () => {
  it('x is minimal: x satisfies eq. 2 and x−1 does not', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e5, max: 1e8, noNaN: true }),
        fc.double({ min: 0.5, max: 10, noNaN: true }),
        fc.double({ min: 1e5, max: 1e9, noNaN: true }),
        (s, l, bh) => {
          const d = decideHold({ segmentBytes: s, segmentSeconds: l, backhaulBps: bh, ranBps: 1e12, maxHold: 100 });
          const x = d.streamHold;
          expect((s * 8) / (bh * x)).toBeLessThanOrEqual(l * (1 + 1e-9));
          if (x > 1) expect((s * 8) / (bh * (x - 1))).toBeGreaterThan(l);
        },
      ),
    );
  });

  it('hold-0 exactly when eq. 1 holds', () => {
    const base = { segmentBytes: 3.7e6, segmentSeconds: 2, bitrateBps: 15e6, maxHold: 8 };
    expect(decideHold({ ...base, backhaulBps: 100e6, ranBps: 100e6 })).toMatchObject({ hold: 0, reason: 'hold-0-sufficient' });
    expect(decideHold({ ...base, backhaulBps: 11.7e6, ranBps: 60e6 })).toMatchObject({ hold: 2, reason: 'hold-x', eq1: false });
  });

  it('eq. 3 failing makes ETHLE not applicable, with the reason', () => {
    const d = decideHold({ segmentBytes: 3.7e6, segmentSeconds: 2, bitrateBps: 15e6, backhaulBps: 11.7e6, ranBps: 10e6 });
    expect(d).toMatchObject({ applicable: false, hold: null, reason: 'ran-below-bitrate' });
  });

  it('the operator cap holds x_max and says QoE is not assured', () => {
    const d = decideHold({ segmentBytes: 12.2e6, segmentSeconds: 2, backhaulBps: 5e6, ranBps: 100e6, maxHold: 3 });
    expect(d).toMatchObject({ applicable: true, hold: 3, assured: false, reason: 'capped-at-max-hold' });
    expect(d.streamHold).toBe(10);
  });

  it('modelHold is backhaulThroughput + decideHold', () => {
    const r = modelHold({ rttSeconds: 0.224, segmentBytes: 3.7e6, segmentSeconds: 2, ranBps: 60e6, initialWindowSegments: 1 });
    expect(r.hold).toBe(2);
    expect(r.backhaul.bps / 1e6).toBeCloseTo(11.68, 1);
  });
});

describe('bottleneck regime', () => {
  it('a transfer that ends inside slow start is unaffected by a bottleneck above its rate', () => {
    const free = slowStartDeliverySeconds({ bytes: 3.7e6, rttSeconds: 0.224, initialWindowSegments: 1 });
    const capped = slowStartDeliverySeconds({ bytes: 3.7e6, rttSeconds: 0.224, initialWindowSegments: 1, bottleneckBps: 1e9 });
    expect(capped).toBeCloseTo(free, 12);
  });
});

describe('units', () => {
  it('throughput × delivery time = segment bits', () => {
    fc.assert(
      fc.property(bytes, rtt, fc.option(fc.double({ min: 1e-6, max: 0.1, noNaN: true }), { nil: undefined }), (b, r, p) => {
        const e = backhaulThroughput({ bytes: b, rttSeconds: r, lossRate: p, includeRequestRtt: true });
        expect((e.bps * e.deliverySeconds) / (b * 8)).toBeCloseTo(1, 9);
      }),
    );
  });

  it('pure slow-start time scales linearly with the RTT (seconds in, seconds out)', () => {
    fc.assert(
      fc.property(bytes, rtt, fc.double({ min: 0.1, max: 10, noNaN: true }), (b, r, k) => {
        const t1 = slowStartDeliverySeconds({ bytes: b, rttSeconds: r, includeRequestRtt: true });
        const tk = slowStartDeliverySeconds({ bytes: b, rttSeconds: r * k, includeRequestRtt: true });
        expect(tk / t1).toBeCloseTo(k, 6);
      }),
    );
  });

  it('x depends on bits over bits/s only: scaling size and throughputs together keeps it', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e5, max: 1e8, noNaN: true }),
        fc.double({ min: 1e6, max: 1e8, noNaN: true }),
        fc.integer({ min: 2, max: 8 }),
        (s, bh, k) => {
          const base = { segmentSeconds: 2, ranBps: 1e12, maxHold: 100 };
          const a = decideHold({ ...base, segmentBytes: s, backhaulBps: bh });
          const b = decideHold({ ...base, segmentBytes: s * k, backhaulBps: bh * k, ranBps: base.ranBps * k });
          expect(b.streamHold).toBe(a.streamHold);
        },
      ),
    );
  });
});
