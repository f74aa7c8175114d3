import type { CacheEntry } from '../cache/CacheEntry.js';

/** An in-flight fetch's recent rate is measured over at least this long (ms): a few backhaul RTTs. */
const RECENT_WINDOW_MS = 500;

/**
 * In-flight fetches' recent rates, for the deadline plan: an entry's rate since the planner last
 * looked at it (at least RECENT_WINDOW_MS ago), bits/s; undefined on the first look. Kept in a
 * WeakMap on the entry: it goes with it.
 */
export class RecentRates {
  readonly #seen = new WeakMap<CacheEntry, { atMs: number; bytes: number; bps: number | undefined }>();

  bps(e: CacheEntry, nowMs: number): number | undefined {
    const p = this.#seen.get(e);
    if (p === undefined) {
      this.#seen.set(e, { atMs: nowMs, bytes: e.bytes, bps: undefined });
      return undefined;
    }
    if (nowMs - p.atMs >= RECENT_WINDOW_MS) {
      p.bps = ((e.bytes - p.bytes) * 8 * 1000) / (nowMs - p.atMs);
      p.atMs = nowMs;
      p.bytes = e.bytes;
    }
    return p.bps;
  }
}
