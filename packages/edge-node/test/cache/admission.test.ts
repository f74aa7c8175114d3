import { describe, expect, it } from 'vitest';
import { admissionAtHeaders, admitAtEnd, isForReceiver, keepLimit, MAX_UNPLANNED_CACHED_BYTES } from '../../src/cache/admission.js';
import { planSplit } from '../../src/origin/planSplit.js';

const MB = 1024 * 1024;

describe('cache admission: the pure decisions a fill applies', () => {
  it('reserves a storable object of known size; not one of unknown size or not storable', () => {
    expect(admissionAtHeaders({ expected: 500_000, storable: true, unplanned: false, maxBytes: 64 * MB })).toEqual({
      reserve: true,
      passThroughUnlessAdmitted: false,
    });
    expect(admissionAtHeaders({ expected: undefined, storable: true, unplanned: false, maxBytes: 64 * MB })).toEqual({
      reserve: false,
      passThroughUnlessAdmitted: false,
    });
    expect(admissionAtHeaders({ expected: 500_000, storable: false, unplanned: false, maxBytes: 64 * MB }).reserve).toBe(false);
  });

  it('an unplanned object past its cap is never reserved and streams through; a planned one of that size is kept', () => {
    const big = MAX_UNPLANNED_CACHED_BYTES + 1;
    expect(admissionAtHeaders({ expected: big, storable: true, unplanned: true, maxBytes: 64 * MB })).toEqual({
      reserve: false,
      passThroughUnlessAdmitted: true,
    });
    expect(admissionAtHeaders({ expected: big, storable: true, unplanned: false, maxBytes: 64 * MB })).toEqual({
      reserve: true,
      passThroughUnlessAdmitted: false,
    });
    expect(admissionAtHeaders({ expected: MAX_UNPLANNED_CACHED_BYTES, storable: true, unplanned: true, maxBytes: 64 * MB }).reserve).toBe(
      true,
    );
  });

  it('anything larger than the whole budget streams through unless admitted', () => {
    expect(admissionAtHeaders({ expected: 2 * MB, storable: true, unplanned: false, maxBytes: MB }).passThroughUnlessAdmitted).toBe(true);
    expect(keepLimit(false, 3 * MB)).toBe(3 * MB);
    expect(keepLimit(true, 3 * MB)).toBe(MAX_UNPLANNED_CACHED_BYTES);
  });

  it('only a storable object of unknown length not streamed through is offered at its end', () => {
    expect(admitAtEnd({ expected: undefined, storable: true, passThrough: false })).toBe(true);
    expect(admitAtEnd({ expected: 10, storable: true, passThrough: false })).toBe(false);
    expect(admitAtEnd({ expected: undefined, storable: false, passThrough: false })).toBe(false);
    expect(admitAtEnd({ expected: undefined, storable: true, passThrough: true })).toBe(false);
  });

  it('a prefetch is a receiver’s once someone reads it', () => {
    expect(isForReceiver(false, 0)).toBe(true);
    expect(isForReceiver(true, 0)).toBe(false);
    expect(isForReceiver(true, 1)).toBe(true);
  });
});

describe('planSplit', () => {
  it('splits into at most one part per 256 KiB of the estimate, and not where it cannot help', () => {
    expect(planSplit({ split: { parts: 4, approxBytes: 2 * MB }, rangesIgnored: false, maxBytes: 64 * MB })).toBe(4);
    expect(planSplit({ split: { parts: 4, approxBytes: 600 * 1024 }, rangesIgnored: false, maxBytes: 64 * MB })).toBe(2);
    expect(planSplit({ split: { parts: 4, approxBytes: 100_000 }, rangesIgnored: false, maxBytes: 64 * MB })).toBe(1);
    expect(planSplit({ split: undefined, rangesIgnored: false, maxBytes: 64 * MB })).toBe(1);
    expect(planSplit({ split: { parts: 4, approxBytes: 2 * MB }, rangesIgnored: true, maxBytes: 64 * MB })).toBe(1);
    // Parts wait for the ones before them: the object must fit the budget twice over.
    expect(planSplit({ split: { parts: 4, approxBytes: 2 * MB }, rangesIgnored: false, maxBytes: 3 * MB })).toBe(1);
  });
});
