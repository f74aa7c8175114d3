/**
 * An unplanned object (no window lists it: an init segment, a key, a query only one receiver
 * sends) is cached up to this size; a larger one (by its Content-Length, or once one of unknown
 * length grows past it) streams through (CacheEntry.passThrough) instead of becoming a private
 * full copy per request.
 */
export const MAX_UNPLANNED_CACHED_BYTES = 1024 * 1024;

/** A pass-through object is read from the origin at most this far ahead of its fastest reader. */
export const PASS_THROUGH_WINDOW = 256 * 1024;

/** What a response's headers say about keeping it. */
export interface ResponseFacts {
  /** Its Content-Length (undefined: unknown until the body ends). */
  expected: number | undefined;
  /** The core's storability rule (isStorable) allows keeping it. */
  storable: boolean;
  /** No stream's window lists it (CacheEntry.cancelWhenOrphaned). */
  unplanned: boolean;
  /** The cache's whole byte budget. */
  maxBytes: number;
}

/** The cache's decision once a whole-object response's headers are in. */
export interface HeadersAdmission {
  /** Reserve the whole object's room now (its size is known and it may be kept). */
  reserve: boolean;
  /** Not admitted, it streams through its readers rather than being held whole. */
  passThroughUnlessAdmitted: boolean;
}

/**
 * Whether to reserve room for a response as its headers arrive, and whether it streams through
 * if not admitted: an unplanned object larger than MAX_UNPLANNED_CACHED_BYTES is never reserved,
 * and it or anything larger than the whole budget streams through (it could never be held whole).
 */
export function admissionAtHeaders(r: ResponseFacts): HeadersAdmission {
  const unplannedLarge = r.unplanned && r.expected !== undefined && r.expected > MAX_UNPLANNED_CACHED_BYTES;
  return {
    reserve: !unplannedLarge && r.expected !== undefined && r.storable,
    passThroughUnlessAdmitted: unplannedLarge || (r.expected !== undefined && r.expected > r.maxBytes),
  };
}

/**
 * The most a not-admitted entry may grow to and still be kept whole: an unplanned object's cap,
 * else the whole budget. Past it the entry streams through.
 */
export function keepLimit(unplanned: boolean, maxBytes: number): number {
  return unplanned ? MAX_UNPLANNED_CACHED_BYTES : maxBytes;
}

/**
 * Whether a response of unknown length, now whole and held as transit, is offered to the cache at
 * its end (cached if it fits then, else served and let go).
 */
export function admitAtEnd(r: { expected: number | undefined; storable: boolean; passThrough: boolean }): boolean {
  return r.expected === undefined && r.storable && !r.passThrough;
}

/**
 * Whether a fetch counts as a receiver's (may evict wanted entries, is served through when it
 * does not fit): any but a prefetch, and a prefetch once a receiver reads it.
 */
export function isForReceiver(prefetch: boolean, readers: number): boolean {
  return !prefetch || readers > 0;
}
