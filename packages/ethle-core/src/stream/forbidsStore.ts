// Module-level: every origin segment response of both edges is tested against it.
const NO_STORE = /no-store|no-cache|private|max-age=0(?!\d)/i;

/**
 * Whether an origin's Cache-Control asks every cache to come back to it (no-store, no-cache,
 * private, max-age=0): an object still growing at the origin (a byte-range file being written),
 * a per-viewer one. An edge neither keeps such a response nor tells the caches after it to keep
 * it: it passes this Cache-Control on.
 */
export function forbidsStore(cacheControl: string | null | undefined): boolean {
  return cacheControl !== null && cacheControl !== undefined && NO_STORE.test(cacheControl);
}
