import type { HlsMediaPlaylist } from './HlsMediaPlaylist.js';

/**
 * Parts per parent segment of an LL-HLS playlist: how many EXT-X-PART lines the newest complete
 * segment that lists parts has; without one, target duration / PART-TARGET rounded. Undefined for
 * a playlist without parts. Used to carry part positions across segment boundaries (rendition
 * reports of a part hold, blocking-reload arithmetic): the live origin cuts every segment into the
 * same number of parts, and RFC 8216bis segments are at most a target duration long.
 */
export function partsPerSegment(p: HlsMediaPlaylist): number | undefined {
  for (let i = p.segments.length - 1; i >= 0; i--) {
    const parts = (p.segments[i] as HlsMediaPlaylist['segments'][number]).parts;
    if (parts.length > 0) return parts.length;
  }
  if (p.partTarget === undefined || p.partTarget <= 0) return undefined;
  return Math.max(1, Math.round(p.targetDuration / p.partTarget));
}
