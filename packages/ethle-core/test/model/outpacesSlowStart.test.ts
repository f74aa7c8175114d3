import { describe, expect, it } from 'vitest';
import { isEthleError, OriginStartLearner, OUTPACE_SHARE, outpacesSlowStart, slowStartDeliverySeconds } from '../../src/index.js';

// The head the Node edge times: 1 MiB. At 224 ms slow start from IW 10 needs ~1.39 s for it after
// the request's round trip.
const MIB = 1_048_576;
const slow = slowStartDeliverySeconds({ bytes: MIB, rttSeconds: 0.224 });

describe('outpacesSlowStart: a window already open when the request came', () => {
  it("a head at a kept window's rate outpaces; one in slow start does not, nor one on a window halved a few times", () => {
    expect(slow).toBeGreaterThan(1.3);
    // Measured at 224 ms (before the packet accounting; BBR does not halve its window on a loss):
    // a BBR origin's 1 MiB heads took 251–299 ms, one RTT and a little.
    expect(outpacesSlowStart({ bytes: MIB, seconds: 0.26, rttSeconds: 0.224 })).toBe(true);
    expect(outpacesSlowStart({ bytes: MIB, seconds: 0.224 + (MIB * 8) / 60e6, rttSeconds: 0.224 })).toBe(true);
    expect(outpacesSlowStart({ bytes: MIB, seconds: 0.224 + slow, rttSeconds: 0.224 })).toBe(false);
    // A restarting origin after a short idle gap (its window halved, not reset) takes a few round trips.
    // 0.686 s is the fastest CUBIC head seen before the testbed counted its drops (issue 35): an
    // example, not a measurement, until the run named at OUTPACE_SHARE re-measures it.
    expect(outpacesSlowStart({ bytes: MIB, seconds: 0.686, rttSeconds: 0.224 })).toBe(false);
    // The margin: just under OUTPACE_SHARE of slow start's time counts, just over does not.
    expect(outpacesSlowStart({ bytes: MIB, seconds: 0.224 + OUTPACE_SHARE * slow * 0.99, rttSeconds: 0.224 })).toBe(true);
    expect(outpacesSlowStart({ bytes: MIB, seconds: 0.224 + OUTPACE_SHARE * slow * 1.01, rttSeconds: 0.224 })).toBe(false);
  });

  it('a larger initial window makes slow start itself faster, so the same fetch may no longer outpace it', () => {
    const f = { bytes: MIB, seconds: 0.224 + 0.2 * slow, rttSeconds: 0.224 };
    expect(outpacesSlowStart(f)).toBe(true);
    expect(outpacesSlowStart({ ...f, initialWindowSegments: 1000 })).toBe(false);
  });

  it('bad input is an EthleError', () => {
    for (const bad of [{ bytes: 0 }, { seconds: -1 }, { rttSeconds: 0 }, { rttSeconds: Number.NaN }]) {
      let error: unknown;
      try {
        outpacesSlowStart({ bytes: 1e6, seconds: 1, rttSeconds: 0.1, ...bad });
      } catch (e) {
        error = e;
      }
      expect(isEthleError(error)).toBe(true);
    }
  });
});

describe('OriginStartLearner: how an origin treats idle connections, warm only on unanimous evidence', () => {
  const warm = { bytes: MIB, totalMs: 260, idleMs: 1500, rttMs: 224, initialWindow: 10 };
  const cold = { ...warm, totalMs: 224 + slow * 1000 };

  it('a gap shorter than the RTO says nothing; warm takes five warm idle fetches in a row', () => {
    const l = new OriginStartLearner();
    // 1.25 × 224 + 200 = 480 ms: below it even a slow-start-after-idle origin keeps its window.
    expect(l.add('o', { ...warm, idleMs: 479 })).toBe('not-idle');
    // Loopback-like RTTs: the start cannot change x there, and the head is within processing noise.
    expect(l.add('o', { ...warm, rttMs: 9, idleMs: 1500, totalMs: 40 })).toBe('near');
    for (let i = 0; i < 4; i++) {
      expect(l.add('o', warm)).toBe('warm');
      expect(l.learned('o')).toBeUndefined();
    }
    l.add('o', warm);
    expect(l.learned('o')).toBe('warm');
    expect(l.learned('other')).toBeUndefined();
  });

  it('one slow-start fetch among the last five, once three are in, is slow start', () => {
    const l = new OriginStartLearner();
    l.add('o', cold);
    l.add('o', warm);
    expect(l.learned('o')).toBeUndefined();
    l.add('o', warm);
    expect(l.learned('o')).toBe('slow-start');
  });

  it('a CUBIC-like origin whose verdicts alternate stays slow start: it does not flip', () => {
    const l = new OriginStartLearner();
    const seen = new Set<string | undefined>();
    for (let i = 0; i < 40; i++) {
      l.add('o', i % 3 === 2 ? cold : warm);
      if (i >= 2) seen.add(l.learned('o'));
    }
    expect([...seen]).toEqual(['slow-start']);
  });

  it('turns at once toward slow start, and back to warm only after five clean fetches', () => {
    const l = new OriginStartLearner();
    for (let i = 0; i < 5; i++) l.add('o', warm);
    expect(l.learned('o')).toBe('warm');
    l.add('o', cold);
    expect(l.learned('o')).toBe('slow-start');
    for (let i = 0; i < 4; i++) {
      l.add('o', warm);
      expect(l.learned('o')).toBe('slow-start');
    }
    l.add('o', warm);
    expect(l.learned('o')).toBe('warm');
  });
});
