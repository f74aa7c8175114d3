import { availableSegments, parseMpd } from '@ethle/core';

/**
 * How far a live manifest's content reaches, s, pure: an origin's and an edge's, read at the same
 * instant, differ by what the edge holds back (plus how late its copy is). Only differences of
 * two readings of one shape mean anything: HLS gives production time (program date-time, epoch
 * s), DASH media time (s on the stream's own timeline, which an edge keeps while it moves
 * availabilityStartTime).
 */

/**
 * HLS media playlist: the production end of its newest whole segment or, with `parts`, of its
 * newest listed part (parts after the last whole segment belong to the one in production). Null
 * without a program date-time or a segment.
 */
export function hlsContentEdge(text: string, parts: boolean): number | null {
  let pdt = NaN;
  let dur = NaN;
  let end = NaN;
  let pending = 0;
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) pdt = Date.parse(line.slice(25));
    else if (line.startsWith('#EXTINF:')) dur = parseFloat(line.slice(8));
    else if (line.startsWith('#EXT-X-PART:')) pending += Number(/DURATION=([\d.]+)/.exec(line)?.[1] ?? 0);
    else if (line !== '' && !line.startsWith('#') && Number.isFinite(dur)) {
      end = pdt + dur * 1000;
      pdt = end;
      dur = NaN;
      pending = 0;
    }
  }
  return Number.isFinite(end) ? (end + (parts ? pending * 1000 : 0)) / 1000 : null;
}

/** The first variant's URI of an HLS multivariant playlist, resolved against its URL; null for a media playlist. */
export function firstVariant(text: string, url: string): string | null {
  const lines = text.split(/\r?\n/);
  const i = lines.findIndex((l) => l.startsWith('#EXT-X-STREAM-INF:'));
  const uri = i < 0 ? undefined : lines.slice(i + 1).find((l) => l !== '' && !l.startsWith('#'));
  return uri === undefined ? null : new URL(uri, url).href;
}

/**
 * DASH MPD at `nowMs`: the media end of its newest available video segment (templates, by the
 * MPD's own availabilityStartTime and clock, timelines by their S entries; the announcement ahead
 * of a chunked segment's end, availabilityTimeOffset, is left out on both sides alike). A
 * SegmentList lists its segments: the newest SegmentURL's number (this origin's `{n}.m4s`, of
 * `segmentSeconds`).
 */
export function dashContentEdge(text: string, nowMs: number, segmentSeconds: number): number | null {
  const info = parseMpd(text);
  const video = new Set(
    info.periods.flatMap((p) =>
      p.representations.filter((r) => r.contentType === 'video' || r.mimeType?.startsWith('video/')).map((r) => r.id),
    ),
  );
  let end = -Infinity;
  for (const s of availableSegments(info, nowMs))
    if (video.has(s.representationId)) end = Math.max(end, s.time / s.timescale + (s.endSeconds - s.startSeconds));
  if (Number.isFinite(end)) return end;
  const listed = [...text.matchAll(/<SegmentURL media="[^"]*\/v\/(\d+)\.m4s"/g)].map((m) => Number(m[1]));
  return listed.length === 0 ? null : (Math.max(...listed) + 1) * segmentSeconds;
}
