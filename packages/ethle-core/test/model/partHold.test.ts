import { describe, expect, it } from 'vitest';
import { modelHold, modelPartHold } from '@ethle/core';

// Table I segment sizes (MB = 10^6 B); the stream's bitrate is size·8 / length. 224 ms (Japan),
// 60 Mbit/s radio, Linux defaults: IW 10, MSS 1448, 3 MiB receive window.
const TABLE_I = [
  { stream: '15M-2s', bytes: 3.7e6, seconds: 2 },
  { stream: '15M-4s', bytes: 7.2e6, seconds: 4 },
  { stream: '15M-10s', bytes: 18.3e6, seconds: 10 },
  { stream: '50M-2s', bytes: 12.2e6, seconds: 2 },
  { stream: '50M-4s', bytes: 24.4e6, seconds: 4 },
  { stream: '50M-10s', bytes: 61.1e6, seconds: 10 },
] as const;
// N in parts: [0.5 s warm, 0.5 s fresh, 1 s warm, 1 s fresh].
const EXPECTED: Record<string, [number, number, number, number]> = {
  '15M-2s': [0, 4, 0, 3],
  '15M-4s': [0, 4, 0, 3],
  '15M-10s': [0, 4, 0, 3],
  '50M-2s': [1, 5, 1, 3],
  '50M-4s': [1, 5, 1, 3],
  '50M-10s': [1, 5, 1, 3],
};
const part = (bytes: number, seconds: number, partSeconds: number, start: 'warm' | 'fresh') =>
  modelPartHold({ rttSeconds: 0.224, partSeconds, bitrateBps: (bytes * 8) / seconds, ranBps: 60e6, start });

describe('modelPartHold: N parts for the Table I streams at 224 ms', () => {
  it.each(TABLE_I)('$stream', ({ stream, bytes, seconds }) => {
    const got = [
      part(bytes, seconds, 0.5, 'warm'),
      part(bytes, seconds, 0.5, 'fresh'),
      part(bytes, seconds, 1, 'warm'),
      part(bytes, seconds, 1, 'fresh'),
    ];
    expect(got.map((r) => r.hold)).toEqual(EXPECTED[stream]);
    for (const r of got) expect(r.holdSeconds).toBeCloseTo((r.hold ?? 0) * ((r.partBytes * seconds) / bytes), 9);
  });

  it('pins the figures in the code comment (15M-2s and 50M-2s, 0.5 s parts)', () => {
    const w15 = part(3.7e6, 2, 0.5, 'warm');
    expect(w15.partBytes).toBe(925_000);
    const r = (3 * 2 ** 20 * 8) / 0.224;
    expect(w15.backhaul.deliverySeconds).toBeCloseTo(0.224 + (925_000 * 8) / r, 9);
    expect(w15.backhaul.deliverySeconds).toBeCloseTo(0.29, 3);
    expect(w15).toMatchObject({ hold: 0, reason: 'hold-0-sufficient', start: 'warm' });
    expect(w15.backhaul.limitedBy).toBe('window');
    const f15 = part(3.7e6, 2, 0.5, 'fresh');
    expect(f15.backhaul.deliverySeconds).toBeCloseTo(2 * 0.224 + 0.224 * Math.log2(925_000 / 14_480 + 1), 9);
    expect(f15.backhaul.deliverySeconds).toBeCloseTo(1.796, 3);
    expect(f15).toMatchObject({ hold: 4, reason: 'hold-x', holdSeconds: 2 });
    const w50 = part(12.2e6, 2, 0.5, 'warm');
    expect(w50.backhaul.deliverySeconds).toBeCloseTo(0.441, 3);
    expect(w50).toMatchObject({ hold: 1, eq1: false, holdSeconds: 0.5 });
    expect(part(12.2e6, 2, 0.5, 'fresh').backhaul.deliverySeconds).toBeCloseTo(2.178, 3);
  });

  it('costs less latency than whole segments where segments need holding (50M-2s: 0.5 s vs x = 2 of 2 s at IW 1)', () => {
    const seg = modelHold({
      rttSeconds: 0.224,
      segmentBytes: 12.2e6,
      segmentSeconds: 2,
      ranBps: 60e6,
      bitrateBps: 50e6,
      initialWindowSegments: 1,
    });
    expect(seg.hold).toBe(2);
    expect(part(12.2e6, 2, 0.5, 'warm').holdSeconds).toBeLessThan(seg.hold! * 2);
  });

  it('invariants: warm never needs more than fresh; a smaller window, more loss or a longer RTT never need fewer parts', () => {
    for (const { bytes, seconds } of TABLE_I) {
      for (const p of [0.25, 0.5, 1, 2]) {
        const base = { partSeconds: p, bitrateBps: (bytes * 8) / seconds, ranBps: 200e6 };
        const warm = modelPartHold({ ...base, rttSeconds: 0.224 });
        expect(warm.hold!).toBeLessThanOrEqual(modelPartHold({ ...base, rttSeconds: 0.224, start: 'fresh' }).hold!);
        expect(warm.hold!).toBeLessThanOrEqual(modelPartHold({ ...base, rttSeconds: 0.224, receiveWindowBytes: 1e6 }).hold!);
        expect(warm.hold!).toBeLessThanOrEqual(modelPartHold({ ...base, rttSeconds: 0.224, lossRate: 1e-3 }).hold!);
        expect(warm.hold!).toBeLessThanOrEqual(modelPartHold({ ...base, rttSeconds: 0.334 }).hold!);
        // eq. 2 in parts: N parts in flight cover one part's delivery.
        if (warm.reason === 'hold-x') expect(warm.hold! * p).toBeGreaterThanOrEqual(warm.backhaul.deliverySeconds - 1e-9);
      }
    }
  });

  it('loss caps the warm rate (Mathis) and says so; the radio below the bitrate makes it not applicable', () => {
    const lossy = modelPartHold({ rttSeconds: 0.224, partSeconds: 0.5, bitrateBps: 14.8e6, ranBps: 60e6, lossRate: 1e-3 });
    expect(lossy.backhaul.limitedBy).toBe('loss');
    expect(lossy.hold).toBeGreaterThan(0);
    expect(modelPartHold({ rttSeconds: 0.224, partSeconds: 0.5, bitrateBps: 50e6, ranBps: 40e6 })).toMatchObject({
      applicable: false,
      hold: null,
      holdSeconds: 0,
    });
  });

  it('rejects bad input with ERR_MODEL_INVALID_INPUT', () => {
    for (const bad of [{ partSeconds: 0 }, { bitrateBps: -1 }, { rttSeconds: Number.NaN }, { start: 'lukewarm' as 'warm' }]) {
      expect(() => modelPartHold({ rttSeconds: 0.224, partSeconds: 0.5, bitrateBps: 15e6, ranBps: 60e6, ...bad })).toThrow(
        expect.objectContaining({ code: 'ERR_MODEL_INVALID_INPUT' }),
      );
    }
  });
});
