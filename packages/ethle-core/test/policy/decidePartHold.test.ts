import { describe, expect, it } from 'vitest';
import { decidePartHold, modelPartHold } from '../../src/index.js';

// holdParts 'auto' (issue 20): one N per stream from the warm part model, rising only.
const base = { partSeconds: 0.5, ranBps: 60e6, current: undefined, maxHoldParts: 40 };

describe('decidePartHold', () => {
  it('is the warm part model’s N: 15M-2s at 224 ms holds nothing, 50M-2s one part (the figures modelPartHold pins)', () => {
    const low = decidePartHold({ ...base, rttMs: 224, bitrateBps: 14.8e6 });
    expect(low).toEqual({ n: 0, modelled: 0, reason: 'hold-0-sufficient' });
    const high = decidePartHold({ ...base, rttMs: 224, bitrateBps: 48.8e6 });
    expect(high.n).toBe(modelPartHold({ rttSeconds: 0.224, partSeconds: 0.5, bitrateBps: 48.8e6, ranBps: 60e6 }).hold);
    expect(high.n).toBe(1);
  });

  it('a longer backhaul needs more parts in flight', () => {
    const near = decidePartHold({ ...base, rttMs: 224, bitrateBps: 48.8e6 }).n;
    const far = decidePartHold({ ...base, rttMs: 450, bitrateBps: 48.8e6 }).n;
    expect(far).toBeGreaterThan(near);
  });

  it('never lowers N: a stream that held 3 parts keeps 3 when the model would say 0', () => {
    expect(decidePartHold({ ...base, rttMs: 224, bitrateBps: 14.8e6, current: 3 })).toMatchObject({ n: 3, modelled: 0 });
  });

  it('without an RTT or a bitrate yet, keeps what it has (0 at first) and says why', () => {
    expect(decidePartHold({ ...base, rttMs: undefined, bitrateBps: 48.8e6 })).toEqual({ n: 0, modelled: null, reason: 'no-input' });
    expect(decidePartHold({ ...base, rttMs: 224, bitrateBps: undefined, current: 2 })).toEqual({
      n: 2,
      modelled: null,
      reason: 'no-input',
    });
  });

  it('a radio slower than the stream: holding cannot help that receiver, N stays', () => {
    expect(decidePartHold({ ...base, rttMs: 224, bitrateBps: 48.8e6, ranBps: 20e6, current: 1 })).toEqual({
      n: 1,
      modelled: null,
      reason: 'ran-below-bitrate',
    });
  });

  it('is capped by maxHoldParts', () => {
    expect(decidePartHold({ ...base, rttMs: 2000, bitrateBps: 48.8e6, maxHoldParts: 2 }).n).toBe(2);
  });
});
