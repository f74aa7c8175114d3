/** The newest segment an HLS media playlist lists, as far as the manifest lag needs it. */
export interface PlaylistEdge {
  /** Media sequence number of the newest whole segment. */
  sn: number;
  /** Its production end: program date-time + duration, ms. */
  endMs: number;
  /** EXT-X-TARGETDURATION, ms. */
  segMs: number;
}

const LINE = /^#EXT(?:-X-(MEDIA-SEQUENCE|TARGETDURATION|PROGRAM-DATE-TIME|SKIP):|INF:)(.*)$/gm;

/**
 * Reads the newest whole segment of an HLS media playlist body, pure: its sequence number (from
 * EXT-X-MEDIA-SEQUENCE, EXTINF count and a delta update's SKIPPED-SEGMENTS) and its production end
 * (the last EXT-X-PROGRAM-DATE-TIME, advanced by the EXTINF durations after it). Parts
 * (EXT-X-PART) are not segments. Null without a date-time or a segment.
 */
export function parsePlaylistEdge(body: string): PlaylistEdge | null {
  let sn = -1;
  let seq = 0;
  let seg = 0;
  let pdt = NaN;
  let end = NaN;
  for (const [, tag, v] of body.matchAll(LINE)) {
    if (tag === 'MEDIA-SEQUENCE') seq = Number(v);
    else if (tag === 'TARGETDURATION') seg = Number(v) * 1000;
    else if (tag === 'PROGRAM-DATE-TIME') pdt = Date.parse(v!);
    else if (tag === 'SKIP') sn += Number(/SKIPPED-SEGMENTS=(\d+)/.exec(v!)?.[1] ?? 0);
    else {
      sn++;
      pdt = end = pdt + parseFloat(v!) * 1000;
    }
  }
  return sn >= 0 && Number.isFinite(end) && seg > 0 ? { sn: seq + sn, endMs: end, segMs: seg } : null;
}
