import { createHlsHistory, recordHlsHistory, type HlsHistory } from '../hls/HlsHistory.js';
import { holdScannedMediaPlaylist } from '../hls/holdMediaPlaylist.js';
import { isMultivariantPlaylist, parseMultivariantPlaylist } from '../hls/parsePlaylist.js';
import { scanMediaPlaylist } from '../hls/scanMediaPlaylist.js';
import { rewriteMultivariantPlaylist } from '../hls/rewriteMultivariantPlaylist.js';
import { createEdgeRouter } from '../url/createEdgeRouter.js';
import type { UriRouter } from '../url/UriRouter.js';
import type { LoadManifestOptions } from './LoadManifestOptions.js';
import type { LowLatencyInfo, ManifestView, SegmentRef } from './ManifestView.js';
import { partsPerSegment } from '../hls/partsPerSegment.js';
import { lowLatencyFallbackSeconds } from '../hls/lowLatencyFallbackSeconds.js';
import type { HlsMediaPlaylist } from '../hls/HlsMediaPlaylist.js';
import type { HlsPartPosition } from '../hls/HlsPartPosition.js';
import { originPath } from './originPath.js';

/** An HLS media or multivariant playlist version, parsed, held and routed by @ethle/core. */
export function loadHlsManifest(text: string, o: LoadManifestOptions): ManifestView {
  // The closures below outlive this call (as long as the version is current): they capture plain
  // values only, never `o` (it used to hold the previous view, chaining every version together).
  const { manifestUrl, originBase, edgePathPrefix, previousCarry, routing } = o;
  const leftAbsolute = new Set<string>();
  const router = (token: string | undefined): UriRouter | undefined =>
    routing === 'none'
      ? undefined
      : createEdgeRouter({ manifestUrl, sessionToken: token, edgePathPrefix, onLeftAbsolute: (uri) => leftAbsolute.add(uri) });
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
      hold: (_x, token) => ({
        text: rewriteMultivariantPlaylist(text, { route: router(token) ?? keepUri }),
        holdSegments: 0,
        holdSeconds: 0,
      }),
    };
  }

  // One scan per origin version: every hold below works on it (parse once, hold many).
  const scan = scanMediaPlaylist(text);
  const playlist = scan.playlist;
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
    last?.programDateTimeMs === undefined || playlist.endList
      ? undefined
      : last.programDateTimeMs + (last.duration + playlist.targetDuration) * 1000;
  // Validating a version is holding it at x = 0 with the default route: an unholdable version is
  // rejected here, and the text it gives is what hold-0 receivers are served.
  const route = router(undefined);
  const held = (o: { hold?: number; holdParts?: number }, token: string | undefined) =>
    holdScannedMediaPlaylist(scan, text, { ...o, history, ...routeOpt(token === undefined ? route : router(token)) });
  const unheld = held({ hold: 0 }, undefined);
  const kbps = last?.bitrateKbps;
  const lowLatency = lowLatencyOf(playlist, (uri) => originPath(uri, manifestUrl, originBase));
  const fallbackSeconds = lowLatencyFallbackSeconds(playlist);
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
      const r = x === 0 && token === undefined ? unheld : held({ hold: x }, token);
      // The latency a player gets from the hold: what the playlist no longer lists, and, when its
      // LL-HLS went, the player's fallback from PART-HOLD-BACK to HOLD-BACK.
      const lost = r.lowLatencyStripped ? fallbackSeconds : 0;
      return {
        text: r.text,
        holdSegments: r.appliedHold,
        holdSeconds: r.heldSeconds + lost,
        ...(lost > 0 ? { lowLatencyLostSeconds: lost } : {}),
        ...(r.reason ? { reason: r.reason } : {}),
      };
    },
    ...(lowLatency === undefined
      ? {}
      : {
          lowLatency,
          holdParts(n, token) {
            const r = held({ holdParts: n }, token);
            const k = r.partsPerSegment ?? 1;
            return {
              text: r.text,
              holdSegments: r.appliedHold,
              holdSeconds: r.heldSeconds,
              holdParts: r.heldParts,
              position: {
                lastMsn: r.lastVisibleMsn,
                ...(r.lastVisiblePart === undefined ? {} : { lastPart: r.lastVisiblePart }),
                partsPerSegment: k,
                partTarget: playlist.partTarget ?? playlist.targetDuration / k,
                targetDuration: playlist.targetDuration,
                ended: playlist.endList || playlist.playlistType === 'VOD',
              },
              ...(r.reason ? { reason: r.reason } : {}),
            };
          },
        }),
  };
}

/** Parts the edge prefetches at most per version: the newest, where players near the live edge read. */
const MAX_PART_PATHS = 16;

/**
 * What holding in parts needs of an LL-HLS media playlist: undefined without parts (no
 * EXT-X-PART-INF), or once it ended. The next part is the one after the newest listed, carried
 * into the next segment after its last part.
 */
function lowLatencyOf(p: HlsMediaPlaylist, path: (uri: string) => string | undefined): LowLatencyInfo | undefined {
  const k = partsPerSegment(p);
  if (p.partTarget === undefined || k === undefined || p.endList || p.playlistType === 'VOD') return undefined;
  const paths: string[] = [];
  for (const h of p.preloadHints) {
    const hp = h.type === 'PART' ? path(h.uri) : undefined;
    if (hp !== undefined) paths.push(hp);
  }
  const push = (uri: string): boolean => {
    const pp = path(uri);
    if (pp !== undefined) paths.push(pp);
    return paths.length < MAX_PART_PATHS;
  };
  let newest: HlsPartPosition | undefined;
  const ps = p.partialSegment;
  if (ps !== undefined && ps.parts.length > 0) newest = { msn: ps.msn, part: ps.parts.length - 1 };
  outer: {
    if (ps !== undefined) for (let j = ps.parts.length - 1; j >= 0; j--) if (!push(ps.parts[j]!.uri)) break outer;
    for (let i = p.segments.length - 1; i >= 0; i--) {
      const seg = p.segments[i]!;
      if (seg.parts.length === 0) break;
      newest ??= { msn: seg.msn, part: seg.parts.length - 1 };
      for (let j = seg.parts.length - 1; j >= 0; j--) if (!push(seg.parts[j]!.uri)) break outer;
    }
  }
  const lastSeg = p.segments[p.segments.length - 1];
  newest ??= lastSeg === undefined ? undefined : { msn: lastSeg.msn, part: k - 1 };
  const nextPart =
    newest === undefined || p.serverControl?.canBlockReload !== true
      ? undefined
      : newest.part + 1 >= k
        ? { msn: newest.msn + 1, part: 0 }
        : { msn: newest.msn, part: newest.part + 1 };
  return { partSeconds: p.partTarget, ...(nextPart === undefined ? {} : { nextPart }), partPaths: paths };
}

/** Routing 'none': every URI stays as the origin wrote it. */
const keepUri = (uri: string): string => uri;
