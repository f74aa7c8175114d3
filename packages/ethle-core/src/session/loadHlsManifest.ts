import { createHlsHistory, recordHlsHistory, type HlsHistory } from '../hls/HlsHistory.js';
import { holdMediaPlaylist } from '../hls/holdMediaPlaylist.js';
import { isMultivariantPlaylist, parseMediaPlaylist, parseMultivariantPlaylist } from '../hls/parsePlaylist.js';
import { rewriteMultivariantPlaylist } from '../hls/rewriteMultivariantPlaylist.js';
import { createEdgeRouter } from '../url/createEdgeRouter.js';
import type { UriRouter } from '../url/UriRouter.js';
import type { LoadManifestOptions } from './LoadManifestOptions.js';
import type { ManifestView, SegmentRef } from './ManifestView.js';
import { originPath } from './originPath.js';

/** An HLS media or multivariant playlist version, parsed, held and routed by @ethle/core. */
export function loadHlsManifest(text: string, o: LoadManifestOptions): ManifestView {
  // The closures below outlive this call (as long as the version is current): they capture plain
  // values only, never `o` (it used to hold the previous view, chaining every version together).
  const { manifestUrl, originBase, edgePathPrefix, previousCarry, routing } = o;
  const leftAbsolute = new Set<string>();
  const router = (token: string | undefined): UriRouter | undefined =>
    routing === 'none' ? undefined : createEdgeRouter({ manifestUrl, sessionToken: token, edgePathPrefix, onLeftAbsolute: (uri) => leftAbsolute.add(uri) });
  const routeOpt = (r: UriRouter | undefined) => (r === undefined ? {} : { route: r });

  if (isMultivariantPlaylist(text)) {
    // Validate now (throws on garbage) so a broken version never replaces a good one.
    rewriteMultivariantPlaylist(text, { route: router(undefined) ?? keepUri });
    const variantBitrates: Array<{ path: string; bps: number }> = [];
    for (const v of parseMultivariantPlaylist(text).variants) {
      // AVERAGE-BANDWIDTH is what a segment costs on average; BANDWIDTH is the peak.
      const avg = Number(v.attributes['AVERAGE-BANDWIDTH']);
      const bps = Number.isFinite(avg) && avg > 0 ? avg : v.bandwidth;
      const path = originPath(v.uri, manifestUrl, originBase);
      if (bps !== undefined && bps > 0 && path !== undefined) variantBitrates.push({ path, bps });
    }
    return {
      kind: 'hls-multivariant',
      variantBitrates,
      leftAbsolute: [...leftAbsolute],
      segmentSeconds: 0,
      pollIntervalMs: 30_000,
      carry: undefined,
      segments: () => [],
      hold: (_x, token) => ({ text: rewriteMultivariantPlaylist(text, { route: router(token) ?? keepUri }), holdSegments: 0, holdSeconds: 0 }),
    };
  }

  const playlist = parseMediaPlaylist(text);
  const prev = previousCarry as HlsHistory | undefined;
  const history = recordHlsHistory(prev ?? createHlsHistory(), playlist);
  const segments: SegmentRef[] = [];
  for (const s of playlist.segments) {
    const path = originPath(s.uri, manifestUrl, originBase);
    if (path !== undefined) {
      const ref: SegmentRef = { track: 'media', id: s.msn, path, durationSeconds: s.duration };
      if (s.programDateTimeMs !== undefined) ref.availableAtMs = s.programDateTimeMs + s.duration * 1000;
      segments.push(ref);
    }
  }
  // The newest segment became available when its last frame was produced (PDT + duration); the
  // next one, a segment later.
  const last = playlist.segments[playlist.segments.length - 1];
  const nextSegmentDueMs =
    last?.programDateTimeMs === undefined || playlist.endList ? undefined : last.programDateTimeMs + (last.duration + playlist.targetDuration) * 1000;
  // Validate holding once with the default route so an unholdable version is rejected here.
  const route = router(undefined);
  holdMediaPlaylist(text, { hold: 0, history, ...routeOpt(route) });
  const kbps = last?.bitrateKbps;
  return {
    kind: 'hls-media',
    segmentSeconds: playlist.targetDuration,
    leftAbsolute: [...leftAbsolute],
    bitrateHintBps: kbps === undefined || kbps <= 0 ? undefined : kbps * 1000,
    // Live cadence: about half a target duration (RFC 8216 §6.3.4 lets clients reload at that pace).
    pollIntervalMs: (playlist.targetDuration * 1000) / 2,
    nextSegmentDueMs,
    carry: history,
    firstId: playlist.segments[0]?.msn,
    segments: () => segments,
    hold(x, token) {
      const r = holdMediaPlaylist(text, { hold: x, history, ...routeOpt(token === undefined ? route : router(token)) });
      return { text: r.text, holdSegments: r.appliedHold, holdSeconds: r.heldSeconds, ...(r.reason ? { reason: r.reason } : {}) };
    },
  };
}

/** Routing 'none': every URI stays as the origin wrote it. */
const keepUri = (uri: string): string => uri;
