import type { EdgeError } from '../errors/EdgeError.js';
import type { EdgeErrorCode } from '../errors/EdgeErrorCode.js';

/** What a manifest response says about the version it carries. */
export type ManifestFreshness =
  | { state: 'fresh' }
  /** Served, marked stale (`X-Ethle-Manifest-Stale: age`): the origin failed, or has kept its poll waiting. */
  | { state: 'stale'; ageMs: number; code: EdgeErrorCode }
  /** Too old to serve (manifestStaleMs): the origin's error instead. */
  | { state: 'broken'; ageMs: number; error: EdgeError };

/** The answer of nearly every call (every playlist reload), made once. */
const FRESH: ManifestFreshness = Object.freeze({ state: 'fresh' });

/**
 * How fresh the version a stream serves is. Stale when the last origin poll failed — or when the
 * poll under way has waited longer than two segment durations (at least 2 s): an origin that
 * hangs fails its poll only at the fetch deadline (10 s by default), and the version was served
 * unmarked all that time (~11 s in the issue) while it no longer moved. A manifest answers in an
 * RTT; an LL-HLS blocking poll waits for the next part, far less than two segments. A
 * multivariant playlist does not move, so a slow poll of one is not a stale version. Broken past
 * `manifestStaleMs` after a failure.
 */
export function manifestFreshness(o: {
  nowMs: number;
  fetchedAtMs: number;
  lastError: EdgeError | undefined;
  waitingSinceMs: number | undefined;
  segmentSeconds: number;
  multivariant: boolean;
  manifestStaleMs: number;
}): ManifestFreshness {
  const ageMs = o.nowMs - o.fetchedAtMs;
  if (o.lastError !== undefined)
    return ageMs > o.manifestStaleMs ? { state: 'broken', ageMs, error: o.lastError } : { state: 'stale', ageMs, code: o.lastError.code };
  if (o.waitingSinceMs === undefined || o.multivariant) return FRESH;
  const lateAfterMs = Math.max(2000, 2000 * o.segmentSeconds);
  return o.nowMs - o.waitingSinceMs > lateAfterMs ? { state: 'stale', ageMs, code: 'ERR_EDGE_ORIGIN_TIMEOUT' } : FRESH;
}
