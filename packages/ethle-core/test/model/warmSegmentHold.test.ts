import { describe, expect, it } from 'vitest';
import { EthleError, modelHold, warmBackhaul } from '@ethle/core';

// Table I 2 s streams at 224 ms (Japan), Linux defaults: IW 10, MSS 1448, 3 MiB receive window.
const at224 = (bytes: number, start: 'slow-start' | 'warm', ranBps = 112e6) =>
  modelHold({ rttSeconds: 0.224, segmentBytes: bytes, segmentSeconds: 2, ranBps, start, includeRequestRtt: true });
const windowRate = (3 * 2 ** 20 * 8) / 0.224;

describe('modelHold with a warm start (an origin that keeps its window across idle)', () => {
  it('pins the figures in the code comment: 15M-2s and 50M-2s at 224 ms', () => {
    const s15 = at224(3.7e6, 'slow-start');
    expect(s15.backhaul.deliverySeconds).toBeCloseTo(2.017, 3);
    expect(s15).toMatchObject({ hold: 2, streamHold: 2, start: 'slow-start', reason: 'hold-x' });
    const w15 = at224(3.7e6, 'warm');
    expect(w15.backhaul.deliverySeconds).toBeCloseTo(0.224 + (3.7e6 * 8) / windowRate, 9);
    expect(w15.backhaul.deliverySeconds).toBeCloseTo(0.487, 3);
    expect(w15.backhaul.limitedBy).toBe('window');
    expect(w15).toMatchObject({ hold: 0, eq1: true, start: 'warm', reason: 'hold-0-sufficient' });
    // eq. 1 for 15M-2s warm needs 3.7 MB over the radio in 2 − 0.487 s: above 19.6 Mbit/s.
    expect(at224(3.7e6, 'warm', 20e6).hold).toBe(0);
    expect(at224(3.7e6, 'warm', 19e6)).toMatchObject({ hold: 1, streamHold: 1, reason: 'hold-x' });

    const s50 = at224(12.2e6, 'slow-start');
    expect(s50.backhaul.deliverySeconds).toBeCloseTo(2.401, 3);
    expect(s50.hold).toBe(2);
    const w50 = at224(12.2e6, 'warm');
    expect(w50.backhaul.deliverySeconds).toBeCloseTo(1.093, 3);
    expect(w50).toMatchObject({ hold: 0, streamHold: 1 });
    // eq. 1 needs the radio to carry 97.6 Mbit in 2 − 1.093 s: above 107.6 Mbit/s.
    expect(at224(12.2e6, 'warm', 108e6).hold).toBe(0);
    expect(at224(12.2e6, 'warm', 100e6)).toMatchObject({ hold: 1, reason: 'hold-x' });
  });

  it('with the same window, a warm start is never slower than slow start; the window, bottleneck and loss cap it', () => {
    // (The slow-start model has no window unless given one; the warm one always has Linux's.)
    for (const rtt of [0.137, 0.224, 0.302, 0.334]) {
      for (const bytes of [3.7e6, 7.2e6, 18.3e6, 12.2e6, 24.4e6, 61.1e6]) {
        const input = {
          rttSeconds: rtt,
          segmentBytes: bytes,
          segmentSeconds: 2,
          ranBps: 112e6,
          includeRequestRtt: true,
          receiveWindowBytes: 3 * 2 ** 20,
        };
        expect(modelHold({ ...input, start: 'warm' }).backhaul.deliverySeconds).toBeLessThan(modelHold(input).backhaul.deliverySeconds);
      }
    }
    const bytes = 12.2e6;
    expect(warmBackhaul({ bytes, rttSeconds: 0.224, receiveWindowBytes: 1e6 }).bps).toBeLessThan(
      warmBackhaul({ bytes, rttSeconds: 0.224 }).bps,
    );
    expect(warmBackhaul({ bytes, rttSeconds: 0.224, bottleneckBps: 20e6 })).toMatchObject({
      limitedBy: 'bottleneck',
      deliverySeconds: 0.224 + (bytes * 8) / 20e6,
    });
    expect(warmBackhaul({ bytes, rttSeconds: 0.224, lossRate: 0.01 }).limitedBy).toBe('loss');
  });

  it('an unknown start is ERR_MODEL_INVALID_INPUT naming the field', () => {
    try {
      modelHold({ rttSeconds: 0.224, segmentBytes: 1e6, segmentSeconds: 2, ranBps: 1e8, start: 'hot' as never });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EthleError);
      expect(e).toMatchObject({ code: 'ERR_MODEL_INVALID_INPUT', details: { field: 'start' } });
    }
  });
});
