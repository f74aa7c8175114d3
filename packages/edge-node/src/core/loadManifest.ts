import type { ManifestView } from './ManifestView.js';

export interface LoadManifestOptions {
  /** Absolute origin URL of the manifest. */
  manifestUrl: string;
  /** Origin base URL (config), to turn absolute segment URLs into origin-relative paths. */
  originBase: string;
  edgePathPrefix: string;
  /** The previous version (HLS history for the 3 × target duration rule). */
  previous: ManifestView | undefined;
}

// TEMPORARY placeholder until @ethle/core's HLS/DASH modules land; replaced by calls into core.
export function loadManifest(text: string, o: LoadManifestOptions): ManifestView {
  if (!text.startsWith('#EXTM3U')) throw new Error('not a playlist');
  const lines = text.split('\n');
  let seq = 0;
  let target = 2;
  const segs: Array<{ id: number; uri: string; dur: number; first: number; last: number }> = [];
  let first = -1;
  let dur = 0;
  lines.forEach((l, i) => {
    if (l.startsWith('#EXT-X-MEDIA-SEQUENCE:')) seq = Number(l.slice(22));
    else if (l.startsWith('#EXT-X-TARGETDURATION:')) target = Number(l.slice(22));
    else if (l.startsWith('#EXTINF:') || l.startsWith('#EXT-X-PROGRAM-DATE-TIME')) {
      if (first < 0) first = i;
      if (l.startsWith('#EXTINF:')) dur = parseFloat(l.slice(8));
    } else if (l !== '' && !l.startsWith('#') && first >= 0) {
      segs.push({ id: seq + segs.length, uri: l, dur, first, last: i });
      first = -1;
    }
  });
  if (segs.length === 0) throw new Error('no segments');
  const base = new URL(o.manifestUrl);
  const basePath = new URL(o.originBase).pathname.replace(/\/$/, '');
  return {
    kind: 'hls-media',
    segmentSeconds: target,
    pollIntervalMs: (target * 1000) / 2,
    segments: () =>
      segs.map((s) => {
        const u = new URL(s.uri, base);
        return { track: 'media', id: s.id, path: u.pathname.slice(basePath.length) + u.search, durationSeconds: s.dur };
      }),
    hold(x) {
      const n = Math.min(x, segs.length - 1);
      const kept = segs.length - n;
      const cut = n === 0 ? lines.length : segs[kept]!.first;
      const tail = lines.slice(segs[segs.length - 1]!.last + 1);
      const text2 = [...lines.slice(0, cut), ...tail].join('\n');
      return { text: text2, holdSegments: n, holdSeconds: segs.slice(kept).reduce((a, s) => a + s.dur, 0) };
    },
  };
}
