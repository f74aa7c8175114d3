import { availableSegments } from '../dash/availableSegments.js';
import { holdParsedMpd } from '../dash/holdMpd.js';
import type { MpdPeriod, MpdRepresentation } from '../dash/MpdInfo.js';
import { parseMpd } from '../dash/parseMpd.js';
import { startRepresentation } from '../dash/startRepresentation.js';
import { createEdgeRouter } from '../url/createEdgeRouter.js';
import { resolveUrl } from '../url/resolveUrl.js';
import type { UriRouter } from '../url/UriRouter.js';
import type { LoadManifestOptions } from './LoadManifestOptions.js';
import type { ManifestView, Rendition, SegmentRef } from './ManifestView.js';
import { originPath } from './originPath.js';

/** Keep the planner's view of each representation short: the live edge is all it needs. */
const SEGMENTS_PER_REPRESENTATION = 24;

/** A dynamic (or static) MPD version, parsed, held and routed by @ethle/core. */
export function loadDashManifest(text: string, o: LoadManifestOptions): ManifestView {
  // The closures below capture plain values only, never `o` (see loadHlsManifest).
  const { manifestUrl, originBase, edgePathPrefix, routing } = o;
  const info = parseMpd(text);
  const leftAbsolute = new Set<string>();
  const router = (token: string | undefined): UriRouter | undefined =>
    routing === 'none'
      ? undefined
      : createEdgeRouter({ manifestUrl, sessionToken: token, edgePathPrefix, onLeftAbsolute: (uri) => leftAbsolute.add(uri) });
  const route = router(undefined);
  // One parse per origin version (above): every hold below works on it. Validating a version is
  // holding it at x = 0 with the default route (an unholdable version never replaces a good one),
  // and that text, which does not depend on the time, is what hold-0 receivers are served.
  const held = (x: number, token: string | undefined, nowMs: number, holdChunks?: number) => {
    const rt = token === undefined ? route : router(token);
    return holdParsedMpd(text, info, {
      hold: x,
      ...(holdChunks === undefined ? {} : { holdChunks }),
      ...(rt === undefined ? {} : { route: rt }),
      manifestUrl,
      nowMs,
    });
  };
  const unheld = held(0, undefined, o.nowMs);

  const reps = new Map<string, { base: string; nominalSeconds: number; timeline: boolean }>();
  let segmentSeconds = info.maxSegmentDurationSeconds ?? 0;
  for (const p of info.periods) {
    for (const r of p.representations) {
      const nominal = nominalSeconds(r) ?? info.maxSegmentDurationSeconds ?? 2;
      if (segmentSeconds === 0) segmentSeconds = nominal;
      reps.set(`${p.id ?? ''}/${r.id}`, {
        base: baseOf(r, manifestUrl),
        nominalSeconds: nominal,
        timeline: r.template?.timeline !== undefined,
      });
    }
  }
  if (segmentSeconds <= 0) segmentSeconds = 2;
  const { ladder, startBps } = renditionsOf(info.periods);

  // Low-latency DASH: the chunk length, read by holding no chunks (undefined unless every template is chunked).
  const chunked = info.type === 'dynamic' ? holdParsedMpd(text, info, { hold: 0, holdChunks: 0, manifestUrl, nowMs: o.nowMs }) : undefined;
  const chunkSeconds = chunked?.reason === undefined ? chunked?.chunkSeconds : undefined;
  return {
    kind: 'dash',
    ...(chunkSeconds === undefined
      ? {}
      : {
          lowLatency: { partSeconds: chunkSeconds, partPaths: [] },
          holdParts(n: number, token: string | undefined, nowMs: number) {
            const r = held(0, token, nowMs, n);
            return {
              text: r.text,
              holdSegments: 0,
              holdSeconds: r.offsetSeconds,
              holdParts: r.appliedChunks ?? 0,
              ...(r.reason ? { reason: r.reason } : {}),
            };
          },
        }),
    segmentSeconds,
    leftAbsolute: [...leftAbsolute],
    bitrateHintBps: startBps > 0 ? startBps : undefined,
    ...(ladder === undefined ? {} : { ladder }),
    // MPD@minimumUpdatePeriod; an MPD that says nothing is re-read every few segments.
    pollIntervalMs: (info.minimumUpdatePeriodSeconds ?? segmentSeconds * 4) * 1000,
    carry: undefined,
    segments(nowMs) {
      const out: SegmentRef[] = [];
      for (const s of availableSegments(info, nowMs, { maxPerRepresentation: SEGMENTS_PER_REPRESENTATION })) {
        const track = `${s.periodId ?? ''}/${s.representationId}`;
        const rep = reps.get(track);
        if (rep === undefined) continue;
        const path = originPath(s.url, rep.base, originBase);
        if (path === undefined) continue;
        // $Number$ is a stable id; a sliding SegmentTimeline renumbers from its first S, so there
        // the id is the start time in nominal segment lengths (stable across MPD versions).
        const id = rep.timeline ? Math.round(s.startSeconds / rep.nominalSeconds) : s.number;
        out.push({ track, id, path, durationSeconds: s.endSeconds - s.startSeconds, availableAtMs: s.availableAtMs });
      }
      return out;
    },
    hold(x, token, nowMs) {
      const r = x === 0 && token === undefined ? unheld : held(x, token, nowMs);
      return {
        text: r.text,
        holdSegments: r.appliedHold,
        holdSeconds: r.offsetSeconds,
        ...(r.reason ? { reason: r.reason } : {}),
        ...(r.validUntilMs !== undefined ? { validUntilMs: r.validUntilMs } : {}),
      };
    },
  };
}

/**
 * The ladder, when some AdaptationSet of a Period has more than one Representation: each
 * Representation (by Period, in MPD order) with its set's key and whether players start the set on
 * it. And s_seg's advertised bits/s before any fetch: per set key of the first Period, the start
 * choice's @bandwidth (the highest of sets sharing a key: alternatives, as two audio languages
 * without @id are), summed over the keys (video and audio play together).
 */
function renditionsOf(periods: readonly MpdPeriod[]): { ladder: Rendition[] | undefined; startBps: number } {
  const all: Rendition[] = [];
  let isLadder = false;
  const startByKey = new Map<string, number>();
  periods.forEach((p, i) => {
    const sets = new Map<number, MpdRepresentation[]>();
    for (const r of p.representations) {
      const list = sets.get(r.adaptationSetIndex);
      if (list === undefined) sets.set(r.adaptationSetIndex, [r]);
      else list.push(r);
    }
    for (const [index, reps] of sets) {
      if (reps.length > 1) isLadder = true;
      const r0 = reps[0]!;
      // One key across Periods (a player continues a set into the next Period by its @id).
      const set = r0.adaptationSetId ?? r0.mimeType ?? r0.contentType ?? `#${index}`;
      const start = startRepresentation(reps);
      reps.forEach((r, k) => all.push({ track: `${p.id ?? ''}/${r.id}`, set, bandwidthBps: r.bandwidth, start: k === start }));
      if (i === 0 && start !== undefined) startByKey.set(set, Math.max(startByKey.get(set) ?? 0, reps[start]!.bandwidth));
    }
  });
  let startBps = 0;
  for (const b of startByKey.values()) startBps += b;
  return { ladder: isLadder ? all : undefined, startBps };
}

function nominalSeconds(r: MpdRepresentation): number | undefined {
  const t = r.template;
  if (t === undefined || t.timescale <= 0) return undefined;
  if (t.duration !== undefined) return t.duration / t.timescale;
  const first = t.timeline?.[0];
  return first === undefined ? undefined : first.d / t.timescale;
}

/** The URL the representation's templates resolve against: its BaseURL chain over the MPD URL. */
function baseOf(r: MpdRepresentation, manifestUrl: string): string {
  let base = manifestUrl;
  for (const b of r.baseUrls) base = resolveUrl(b, base);
  return base;
}
