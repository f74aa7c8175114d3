import { describe, expect, it } from 'vitest';
import { filledEntry as filled } from '../helpers/filledEntry.js';
import { SegmentCache, type DropReason } from '../../src/cache/SegmentCache.js';
import { EdgeError } from '../../src/errors/EdgeError.js';

// The cache remembers why each key left it and says so when the key is fetched again
// (ethle_origin_refetches_total{after}, ethle_origin_refetched_bytes_total): which objects cross
// the backhaul twice, and why.

describe('SegmentCache: a key fetched again says why it had left', () => {
  it('evicted, failed and uncached objects are told apart, with their sizes; a new key is no refetch', () => {
    const told: [string, DropReason, number][] = [];
    const cache = new SegmentCache({
      maxBytes: 200,
      maxAgeMs: 60_000,
      now: () => 0,
      onRefetch: (k, why, bytes) => told.push([k, why, bytes]),
    });
    filled(cache, 'a', 100);
    filled(cache, 'b', 100);
    filled(cache, 'c', 100); // evicts a (least recently used)
    expect(cache.has('a')).toBe(false);
    // A fetch of unknown length that fails after 10 bytes.
    const f = cache.create('f');
    f.setHeaders({}, undefined);
    f.push(Buffer.alloc(10));
    f.fail(new EdgeError('ERR_EDGE_ORIGIN_TIMEOUT', 'timed out'));
    cache.release(f);
    // An object that never fits (larger than the budget): served through, never cached.
    const big = cache.create('big');
    expect(cache.admit(big, 300)).toBe(false);
    big.setHeaders({}, 300);
    big.end();
    cache.release(big);
    expect(told).toEqual([]);
    for (const k of ['a', 'f', 'big', 'new']) cache.create(k);
    expect(told).toEqual([
      ['a', 'evicted', 100],
      ['f', 'failed', 10],
      ['big', 'uncached', 300],
    ]);
  });
});
