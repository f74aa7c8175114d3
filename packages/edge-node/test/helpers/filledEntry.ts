import type { CacheEntry } from '../../src/cache/CacheEntry.js';
import type { SegmentCache } from '../../src/cache/SegmentCache.js';

/** A complete entry of `size` zero bytes under `key`, admitted to `cache`, as a finished origin fetch leaves it. */
export function filledEntry(cache: SegmentCache, key: string, size: number): CacheEntry {
  const e = cache.create(key);
  cache.admit(e, size);
  e.setHeaders({}, size);
  e.push(Buffer.alloc(size));
  e.end();
  return e;
}
