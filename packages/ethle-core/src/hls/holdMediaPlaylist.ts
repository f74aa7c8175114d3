import { HOLD_LIMITS } from '../model/HOLD_LIMITS.js';
import { EthleError } from '../errors/EthleError.js';
import { applyHlsRouter, isRoutableUri, routeAttributeInLine } from './applyHlsRouter.js';
import type { HlsHistory, HlsHistorySegment } from './HlsHistory.js';
import type { HlsByteRange, HlsMediaSegment } from './HlsMediaPlaylist.js';
import type { HlsRouter } from './HlsUriKind.js';
import { findAttribute, parseAttributeList } from './parseAttributeList.js';
import { LineRole, scanMediaPlaylist, type MediaPlaylistScan } from './scanMediaPlaylist.js';
import type { HlsPartPosition } from './HlsPartPosition.js';
import { partsPerSegment } from './partsPerSegment.js';
import { listedPartsNewestFirst, partsWithin, segmentsTouched, type ListedPart } from './planPartHold.js';

export interface HlsHoldOptions {
  /** x: how many of the newest complete segments to hold back (integer ≥ 0). Required unless `holdParts` is given. */
  hold?: number;
  /**
   * Hold in parts instead (LL-HLS): the newest N listed EXT-X-PARTs leave, the preload hint names
   * the first of them, a segment whose parts are partly held is listed as in progress (its visible
   * parts, no EXTINF/URI), rendition reports move back N parts, and everything a blocking-reload
   * server promises stays (the edge answers `_HLS_msn`/`_HLS_part`/`_HLS_skip`). Not with `hold` > 0
   * or `lowLatency: 'strip'`.
   */
  holdParts?: number;
  /** Segments seen in earlier origin versions of this rendition, to extend a window that holding made too short. */
  history?: HlsHistory;
  /** Routes every fetchable URI (see createEdgeRouter); none = URIs unchanged. */
  route?: HlsRouter;
  /**
   * LL-HLS features the server behind this playlist must honour — blocking reload, delta updates,
   * parts. 'strip' removes them: EXT-X-SERVER-CONTROL CAN-BLOCK-RELOAD, CAN-SKIP-UNTIL,
   * CAN-SKIP-DATERANGES and PART-HOLD-BACK (the line goes if nothing is left), EXT-X-PART-INF,
   * EXT-X-PART, EXT-X-PRELOAD-HINT, EXT-X-RENDITION-REPORT, and EXT-X-SKIP (a delta update becomes a
   * full playlist of the segments it lists: EXT-X-MEDIA-SEQUENCE moves past the skipped ones).
   * Default: 'strip' when holding whole segments (hold ≥ 1 on a live playlist) — such an edge
   * answers neither `_HLS_msn`/`_HLS_part` nor `_HLS_skip` — else 'keep' (always with `holdParts`).
   */
  lowLatency?: 'strip' | 'keep';
}

export interface HlsHeldSegment {
  msn: number;
  /** URI as written in the origin playlist (resolve it against the origin playlist URL to prefetch). */
  uri: string;
  duration: number;
  byteRange?: HlsByteRange;
}

/** A held LL-HLS part: what the edge prefetches in part mode. */
export interface HlsHeldPart {
  msn: number;
  /** Part index within its parent segment. */
  part: number;
  /** URI as written in the origin playlist. */
  uri: string;
  duration: number;
  byteRange?: HlsByteRange;
}

export interface HlsHoldResult {
  /** The playlist to serve. */
  text: string;
  requestedHold: number;
  /** The x applied (≤ requested; see `reason`). Goes into X-Ethle-Hold-Segments. */
  appliedHold: number;
  /** Latency the hold adds: held segment durations plus held in-progress parts (X-Ethle-Hold-Seconds). */
  heldSeconds: number;
  /** The held complete segments, oldest first — what the edge can prefetch now. */
  held: HlsHeldSegment[];
  /**
   * LL-HLS parts held. Whole segments: the in-progress segment's parts (they always go when x ≥ 1 or
   * LL-HLS is stripped). `holdParts`: the N parts held (≤ requested; see `reason`).
   */
  heldParts: number;
  /** `holdParts` only: N as requested. */
  requestedParts?: number;
  /** `holdParts` only: the held parts, oldest first; the first is what the preload hint names. */
  heldPartList?: HlsHeldPart[];
  /** The newest part the served playlist lists (undefined if it lists none): what a blocking reload is measured against. */
  lastVisiblePart?: HlsPartPosition;
  /** Parts per parent segment of this playlist (see partsPerSegment); undefined without parts. */
  partsPerSegment?: number;
  /** LL-HLS tags were removed (see HlsHoldOptions.lowLatency). */
  lowLatencyStripped: boolean;
  /** msn of the newest complete segment the player sees (mediaSequence − 1 if none). */
  lastVisibleMsn: number;
  /** Older segments listed again at the head (from history) to keep ≥ 3 × target duration. */
  extendedFromHistory: number;
  /** Duration of the complete segments listed in the served playlist (skipped segments of a delta update count as one target duration each). */
  playlistSeconds: number;
  /**
   * Why less was held than requested: 'ended' (EXT-X-ENDLIST or VOD: passed through unheld),
   * 'short-window' (holding more would leave < 3 × target duration even with history), or, with
   * `holdParts`, 'parts-not-listed' (the playlist lists fewer parts than requested: none at all
   * without LL-HLS). In part mode `appliedHold` counts the complete segments that left the list
   * (whole or partly held).
   */
  reason?: 'ended' | 'short-window' | 'parts-not-listed';
}

/** RFC 8216 §6.2.2: a live playlist lists at least three target durations. */
const MIN_TARGET_DURATIONS = 3;
const MAX_HOLD = HOLD_LIMITS.max;
/** Parts are a fraction of a segment: allow as many parts as segments times a generous parts-per-segment. */
const MAX_HOLD_PARTS = HOLD_LIMITS.max * 10;
const EPS = 1e-9;
const SEGMENT_ROLE_MASK =
  (1 << LineRole.SegmentTag) |
  (1 << LineRole.Key) |
  (1 << LineRole.Map) |
  (1 << LineRole.Part) |
  (1 << LineRole.PreloadHint) |
  (1 << LineRole.Uri);

/**
 * ETHLE holding for an HLS media playlist: the newest `hold` complete segments leave the tail
 * together with every tag that precedes them (segment tags and ad-break cues alike) and with the
 * in-progress LL-HLS segment (its parts and preload hints — they are newer than any held segment,
 * so they go whenever x ≥ 1; x counts complete segments only, the unit the edge prefetches).
 * When holding, LL-HLS tags the edge cannot honour are stripped (see `lowLatency`); kept, an
 * EXT-X-RENDITION-REPORT's LAST-MSN drops by as many msns as our own last msn did. Every other line
 * is kept byte for byte and in order; URIs are routed.
 *
 * If the remaining playlist would be shorter than 3 × target duration, older segments from
 * `history` are listed again at the head (EXT-X-MEDIA-SEQUENCE / -DISCONTINUITY-SEQUENCE move back);
 * if history cannot cover it, fewer segments are held and `reason` says 'short-window'. At least
 * one segment of the origin's window always stays visible. Ended playlists pass through unheld.
 *
 * Throws EthleError only: ERR_HLS_NOT_A_PLAYLIST, ERR_HLS_MALFORMED, ERR_HLS_INVALID_OPTIONS,
 * ERR_URL_INVALID (router). Never returns a partial rewrite.
 */
export function holdMediaPlaylist(text: string, options: HlsHoldOptions): HlsHoldResult {
  return holdPlaylist(text, options, undefined);
}

/**
 * holdMediaPlaylist on a playlist already scanned (`scan` is `scanMediaPlaylist(text)`): a
 * stream's loader scans each origin version once and holds it at every x from that one scan.
 * Core-internal (the scan is not public API).
 */
export function holdScannedMediaPlaylist(scan: MediaPlaylistScan, text: string, options: HlsHoldOptions): HlsHoldResult {
  return holdPlaylist(text, options, scan);
}

function holdPlaylist(text: string, options: HlsHoldOptions, scanned: MediaPlaylistScan | undefined): HlsHoldResult {
  const holdParts = options?.holdParts;
  const partMode = holdParts !== undefined;
  if (partMode && (typeof holdParts !== 'number' || !Number.isInteger(holdParts) || holdParts < 0 || holdParts > MAX_HOLD_PARTS)) {
    throw new EthleError('ERR_HLS_INVALID_OPTIONS', `holdParts must be an integer from 0 to ${MAX_HOLD_PARTS}`, { holdParts });
  }
  const requested = partMode && options.hold === undefined ? 0 : options?.hold;
  if (typeof requested !== 'number' || !Number.isInteger(requested) || requested < 0 || requested > MAX_HOLD) {
    throw new EthleError('ERR_HLS_INVALID_OPTIONS', `hold must be an integer from 0 to ${MAX_HOLD}`, { hold: requested });
  }
  if (partMode && requested > 0)
    throw new EthleError('ERR_HLS_INVALID_OPTIONS', 'give hold (segments) or holdParts (parts), not both', { hold: requested, holdParts });
  const route = options.route;
  if (route !== undefined && typeof route !== 'function') throw new EthleError('ERR_HLS_INVALID_OPTIONS', 'route must be a function');
  const history = options.history;
  if (history !== undefined && (typeof history !== 'object' || history === null || !Array.isArray(history.segments))) {
    throw new EthleError('ERR_HLS_INVALID_OPTIONS', 'history must come from createHlsHistory / recordHlsHistory');
  }

  const scan = scanned ?? scanMediaPlaylist(text);
  const p = scan.playlist;
  const segs = p.segments;
  const n = segs.length;
  const td = p.targetDuration;
  const ended = p.endList || p.playlistType === 'VOD';
  const lowLatency = options.lowLatency ?? (requested > 0 && !ended ? 'strip' : 'keep');
  if (lowLatency !== 'strip' && lowLatency !== 'keep')
    throw new EthleError('ERR_HLS_INVALID_OPTIONS', "lowLatency must be 'strip' or 'keep'", { lowLatency });
  const strip = lowLatency === 'strip';
  if (partMode && strip && (holdParts as number) > 0)
    throw new EthleError('ERR_HLS_INVALID_OPTIONS', "holdParts keeps LL-HLS: lowLatency 'strip' contradicts it", { holdParts });
  const tail = strip ? [] : listedPartsNewestFirst(scan);

  let x = 0;
  let ext: HlsHistorySegment[] = [];
  // A stripped delta update lists only the segments it lists.
  const skippedSeconds = strip ? 0 : p.skippedSegments * td;
  // cum[i] = duration of the first i listed segments.
  const cum = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) cum[i + 1] = (cum[i] as number) + (segs[i] as HlsMediaSegment).duration;
  // Part mode: the newest N listed parts; the complete segments they touch leave the list.
  const wantParts = partMode && !ended ? Math.min(holdParts as number, tail.length) : 0;
  const wantX = partMode ? segmentsTouched(tail, wantParts, n) : requested;
  if (!ended && wantX > 0) {
    const minSeconds = MIN_TARGET_DURATIONS * td;
    // Try the requested x first, then less; a longer head from history beats holding less.
    for (let cand = Math.min(wantX, n - 1); cand >= 1; cand--) {
      const short = minSeconds - (skippedSeconds + (cum[n - cand] as number));
      if (short <= EPS) {
        x = cand;
        break;
      }
      const found = history === undefined ? undefined : extension(history, scan, short, strip);
      if (found !== undefined) {
        x = cand;
        ext = found;
        break;
      }
    }
  }
  // Fewer segments may leave than the parts touch (3 × target duration): hold the parts that fit.
  const nParts = partMode ? (x < wantX ? partsWithin(tail, x, n) : wantParts) : 0;
  const pp = nParts > 0 ? planPartRender(scan, tail, nParts, route) : undefined;
  const fixPartHoldBack = partMode && !ended && (holdParts as number) > 0;

  const text2 =
    x === 0 && ext.length === 0 && route === undefined && !strip && pp === undefined && !fixPartHoldBack
      ? text
      : render(scan, x, ext, route, strip, pp, fixPartHoldBack);
  const held: HlsHeldSegment[] = [];
  let heldSeconds = 0;
  for (let i = n - x; i < n; i++) {
    const s = segs[i] as HlsMediaSegment;
    const h: HlsHeldSegment = { msn: s.msn, uri: s.uri, duration: s.duration };
    if (s.byteRange !== undefined) h.byteRange = s.byteRange;
    held.push(h);
    heldSeconds += s.duration;
  }
  let heldParts = 0;
  let heldPartList: HlsHeldPart[] | undefined;
  if (partMode) {
    // Only the held parts: the complete segments they touched are not held in full.
    heldSeconds = 0;
    heldParts = nParts;
    heldPartList = [];
    for (let j = nParts - 1; j >= 0; j--) {
      const t = tail[j] as ListedPart;
      const hp: HlsHeldPart = { msn: t.msn, part: t.index, uri: t.part.uri, duration: t.part.duration };
      if (t.part.byteRange !== undefined) hp.byteRange = t.part.byteRange;
      heldPartList.push(hp);
      heldSeconds += t.part.duration;
    }
  } else if ((x > 0 || strip) && p.partialSegment !== undefined) {
    // The in-progress segment's parts are newer than anything listed: hidden whenever x ≥ 1 or parts go.
    heldParts = p.partialSegment.parts.length;
    for (const part of p.partialSegment.parts) heldSeconds += part.duration;
  }
  let extSeconds = 0;
  for (const h of ext) extSeconds += h.duration;
  const result: HlsHoldResult = {
    text: text2,
    requestedHold: requested,
    appliedHold: x,
    heldSeconds,
    held,
    heldParts,
    lowLatencyStripped: strip,
    lastVisibleMsn: n - x > 0 ? (segs[n - x - 1] as HlsMediaSegment).msn : p.mediaSequence + p.skippedSegments - 1,
    extendedFromHistory: ext.length,
    playlistSeconds: skippedSeconds + extSeconds + (cum[n - x] as number),
  };
  if (partMode) {
    result.requestedParts = holdParts as number;
    result.heldPartList = heldPartList as HlsHeldPart[];
  }
  const k = partsPerSegment(p);
  if (k !== undefined) result.partsPerSegment = k;
  const lastPart = lastVisiblePart(tail, partMode ? nParts : -1, x, n, strip);
  if (lastPart !== undefined) result.lastVisiblePart = lastPart;
  if (ended && (requested > 0 || (holdParts ?? 0) > 0)) result.reason = 'ended';
  else if (x < wantX) result.reason = 'short-window';
  else if (partMode && nParts < (holdParts as number)) result.reason = 'parts-not-listed';
  return result;
}

/**
 * The fewest history segments, immediately before the origin's first segment, that add at least
 * `needed` seconds and join it consistently (contiguous msn, discontinuity sequence steps of 0 or
 * 1, no fMP4 → TS switch). Undefined if history cannot cover it.
 */
function extension(history: HlsHistory, scan: MediaPlaylistScan, needed: number, strip: boolean): HlsHistorySegment[] | undefined {
  const p = scan.playlist;
  const first = p.segments[0];
  const hs = history.segments;
  // A delta update that stays one cannot list older segments between EXT-X-SKIP and its own.
  if (first === undefined || hs.length === 0 || (p.skippedSegments > 0 && !strip) || scan.mediaSequenceLine < 0) return undefined;
  // A KEY/MAP/PDT line above a header tag would end up above the older segments and apply to them.
  if (scan.firstSegmentLine < scan.headEnd) return undefined;
  const h0 = (hs[0] as HlsHistorySegment | null)?.msn;
  if (typeof h0 !== 'number' || !Number.isInteger(h0))
    throw new EthleError('ERR_HLS_INVALID_OPTIONS', 'history is damaged (no msn on its first entry)');
  const same = hs[first.msn - h0];
  if (same !== undefined) checkHistorySegment(same, first.msn);
  if (same !== undefined && (same.uri !== first.uri || same.discontinuitySequence !== first.discontinuitySequence)) return undefined;
  let j = first.msn - 1 - h0;
  if (j < 0 || j >= hs.length) return undefined;
  const last = hs[j] as HlsHistorySegment;
  checkHistorySegment(last, first.msn - 1);
  const step = first.discontinuitySequence - last.discontinuitySequence;
  if (!(step === 1 || (step === 0 && !first.discontinuity))) return undefined;
  if (last.mapLine !== undefined && first.mapLine === undefined) return undefined;
  const out: HlsHistorySegment[] = [];
  let added = 0;
  let next: HlsHistorySegment | undefined;
  while (added < needed - EPS) {
    if (j < 0) return undefined;
    const h = hs[j] as HlsHistorySegment;
    checkHistorySegment(h, first.msn - 1 - out.length);
    if (next !== undefined) {
      const d = next.discontinuitySequence - h.discontinuitySequence;
      if ((d !== 0 && d !== 1) || (h.mapLine !== undefined && next.mapLine === undefined)) return undefined;
    }
    out.push(h);
    added += h.duration;
    next = h;
    j--;
  }
  return out.reverse();
}

const LINE_BREAK_RE = /[\r\n]/;

/**
 * A history may come back from storage (the service worker keeps it in IndexedDB): check the
 * entries we are about to list, so a damaged one is a typed error, not a TypeError or a broken line.
 */
function checkHistorySegment(h: HlsHistorySegment, msn: number): void {
  const ok =
    typeof h === 'object' &&
    h !== null &&
    h.msn === msn &&
    typeof h.uri === 'string' &&
    h.uri !== '' &&
    !LINE_BREAK_RE.test(h.uri) &&
    typeof h.duration === 'number' &&
    h.duration >= 0 &&
    Number.isInteger(h.discontinuitySequence) &&
    Array.isArray(h.tagLines) &&
    Array.isArray(h.keyLines) &&
    (h.mapLine === undefined || typeof h.mapLine === 'string') &&
    h.tagLines.every((l) => typeof l === 'string' && l.startsWith('#EXT') && !LINE_BREAK_RE.test(l)) &&
    h.keyLines.every((l) => typeof l === 'string' && l.startsWith('#EXT-X-KEY:') && !LINE_BREAK_RE.test(l)) &&
    (h.mapLine === undefined || (h.mapLine.startsWith('#EXT-X-MAP:') && !LINE_BREAK_RE.test(h.mapLine)));
  if (!ok)
    throw new EthleError('ERR_HLS_INVALID_OPTIONS', 'history is damaged (not contiguous, or an entry is not what recordHlsHistory makes)', {
      msn,
    });
}

/** The newest part the served playlist still lists; `nParts` < 0 in segment mode. */
function lastVisiblePart(tail: readonly ListedPart[], nParts: number, x: number, n: number, strip: boolean): HlsPartPosition | undefined {
  if (strip) return undefined;
  let t: ListedPart | undefined;
  if (nParts >= 0) t = tail[nParts];
  else if (x === 0) t = tail[0];
  // Whole segments held: the partial segment went, and so did the parts of the held segments.
  else t = tail.find((c) => c.seg >= 0 && c.seg < n - x);
  return t === undefined ? undefined : { msn: t.msn, part: t.index };
}

/** How render() holds parts: where the held content starts, what else goes, and the preload hint to serve. */
interface PartRender {
  nParts: number;
  cutFrom: number;
  /** EXTINF / EXT-X-BYTERANGE of a partly held segment that precede its first held part. */
  drop: ReadonlySet<number>;
  hint: string;
  /** Where the hint goes: the origin's first PART hint line, else the cut. */
  hintAt: number;
  partsPerSegment: number;
}

function planPartRender(scan: MediaPlaylistScan, tail: readonly ListedPart[], nParts: number, route: HlsRouter | undefined): PartRender {
  const p = scan.playlist;
  const segs = p.segments;
  const first = tail[nParts - 1] as ListedPart; // the oldest held part
  let cutFrom: number;
  const drop = new Set<number>();
  if (first.index > 0) {
    // Its parent stays listed as in progress: its parts up to here, no EXTINF/URI yet.
    cutFrom = first.part.line;
    if (first.seg >= 0) {
      const seg = segs[first.seg] as HlsMediaSegment;
      for (let i = seg.firstLine; i < cutFrom; i++) {
        const l = p.lines[i] as string;
        if (l.startsWith('#EXTINF') || l.startsWith('#EXT-X-BYTERANGE')) drop.add(i);
      }
    }
  } else {
    // Its parent goes entirely, with every tag after the previous URI (as whole-segment holding does).
    const prev = first.seg < 0 ? segs.length - 1 : first.seg - 1;
    cutFrom = prev >= 0 ? (segs[prev] as HlsMediaSegment).uriLine + 1 : scan.firstSegmentLine;
  }
  const uri = route !== undefined && isRoutableUri(first.part.uri) ? applyHlsRouter(route, first.part.uri, 'preload-hint') : first.part.uri;
  const br = first.part.byteRange;
  const hint = `#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${uri}"${br === undefined ? '' : `,BYTERANGE-START=${br.offset},BYTERANGE-LENGTH=${br.length}`}`;
  const originHint = p.preloadHints.find((h) => h.type === 'PART');
  return { nParts, cutFrom, drop, hint, hintAt: originHint?.line ?? cutFrom, partsPerSegment: partsPerSegment(p) ?? 1 };
}

function render(
  scan: MediaPlaylistScan,
  x: number,
  ext: readonly HlsHistorySegment[],
  route: HlsRouter | undefined,
  strip: boolean,
  pp: PartRender | undefined,
  fixPartHoldBack: boolean,
): string {
  const p = scan.playlist;
  const { roles, uriAttrs } = scan;
  const lines = p.lines;
  const segs = p.segments;
  const n = segs.length;
  const cutFrom = pp !== undefined ? pp.cutFrom : x > 0 ? (segs[n - x - 1] as HlsMediaSegment).uriLine + 1 : lines.length;
  const out: string[] = [];
  const newDs = ext.length > 0 ? (ext[0] as HlsHistorySegment).discontinuitySequence : p.discontinuitySequence;

  // Rendition reports: our last msn (in-progress segment included) moves back by `shift`.
  let shift = 0;
  let lastPart: number | undefined;
  if (x > 0 && pp === undefined) {
    const oldLast = p.partialSegment !== undefined ? p.partialSegment.msn : (segs[n - 1] as HlsMediaSegment).msn;
    const visible = segs[n - x - 1] as HlsMediaSegment;
    shift = oldLast - visible.msn;
    if (visible.parts.length > 0) lastPart = visible.parts.length - 1;
  }

  // Stripping a delta update: its first listed segment keeps its msn.
  const mediaSequence = p.mediaSequence + (strip ? p.skippedSegments : 0) - ext.length;
  // A playlist that lists parts must say how far back to start (RFC 8216bis §4.4.3.8).
  const phb = fixPartHoldBack ? partHoldBackFix(p) : undefined;
  for (let i = 0; i < lines.length; i++) {
    if (i === scan.headEnd && ext.length > 0) emitHistory(out, ext, segs[0] as HlsMediaSegment, route);
    const line = lines[i] as string;
    const role = roles[i] as number;
    if (pp !== undefined) {
      if (i === pp.hintAt) out.push(pp.hint);
      if (role === LineRole.PreloadHint || pp.drop.has(i)) continue;
    }
    if (i >= cutFrom) {
      if (((1 << role) & SEGMENT_ROLE_MASK) !== 0) continue;
      // Tags between the last visible URI and a held one belong to a held segment (ad-break cues —
      // EXT-X-CUE-OUT/-CONT/-IN, SCTE-35, EXT-X-DATERANGE — open at the segment they precede); left
      // behind they dangle after the last URI, where a strict parser makes a segment without a URI.
      if (role === LineRole.Other && line.startsWith('#EXT') && !line.startsWith('#EXT-X-ENDLIST')) continue;
    }
    if (strip && ((1 << role) & LL_ROLE_MASK) !== 0) continue;
    switch (role) {
      case LineRole.Header:
        if (strip && line.startsWith('#EXT-X-PART-INF')) break;
        if (strip && line.startsWith('#EXT-X-SERVER-CONTROL')) {
          const kept = stripServerControl(line, i);
          if (kept !== undefined) out.push(kept);
          break;
        }
        if (phb !== undefined && line.startsWith('#EXT-X-SERVER-CONTROL')) {
          out.push(setPartHoldBack(line, i, phb));
          break;
        }
        if (phb !== undefined && p.serverControl === undefined && line.startsWith('#EXT-X-PART-INF')) {
          out.push(line, `#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=${phb}`);
          break;
        }
        if (strip && line.startsWith('#EXT-X-SKIP')) {
          if (scan.mediaSequenceLine < 0) out.push(`#EXT-X-MEDIA-SEQUENCE:${mediaSequence}`);
          break;
        }
        out.push(line);
        break;
      case LineRole.Uri: {
        const uri = line.trim();
        out.push(route !== undefined && isRoutableUri(uri) ? applyHlsRouter(route, uri, 'segment') : line);
        break;
      }
      case LineRole.Key:
      case LineRole.Map:
      case LineRole.Part:
      case LineRole.PreloadHint: {
        const a = uriAttrs[i];
        out.push(route === undefined || a === undefined ? line : routeAttributeInLine(line, a, route, KIND_BY_ROLE[role] ?? 'segment'));
        break;
      }
      case LineRole.RenditionReport:
        out.push(
          pp !== undefined
            ? rewriteReportInParts(line, i, pp.nParts, pp.partsPerSegment, route)
            : rewriteReport(line, i, shift, lastPart, route),
        );
        break;
      case LineRole.MediaSequence:
        out.push(mediaSequence !== p.mediaSequence ? `#EXT-X-MEDIA-SEQUENCE:${mediaSequence}` : line);
        if (ext.length > 0 && scan.discontinuitySequenceLine < 0 && newDs !== 0) out.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${newDs}`);
        break;
      case LineRole.DiscontinuitySequence:
        out.push(newDs !== p.discontinuitySequence ? `#EXT-X-DISCONTINUITY-SEQUENCE:${newDs}` : line);
        break;
      default:
        out.push(line);
    }
  }
  let s = out.join(p.lineEnding);
  if (p.trailingNewline) s += p.lineEnding;
  return s;
}

/**
 * PART-HOLD-BACK to write, or undefined if the playlist's own is fine: it is REQUIRED with
 * EXT-X-PART-INF and MUST be ≥ 2 × PART-TARGET; when missing or too small we write the spec's
 * SHOULD, 3 × PART-TARGET.
 */
function partHoldBackFix(p: MediaPlaylistScan['playlist']): string | undefined {
  const pt = p.partTarget;
  if (pt === undefined) return undefined;
  const have = p.serverControl?.partHoldBack;
  if (have !== undefined && have >= 2 * pt - EPS) return undefined;
  return String(Number((3 * pt).toFixed(6)));
}

function setPartHoldBack(line: string, i: number, value: string): string {
  const colon = line.indexOf(':');
  const a = findAttribute(parseAttributeList(line, colon + 1, i, 'EXT-X-SERVER-CONTROL'), 'PART-HOLD-BACK');
  if (a === undefined) return `${line}${colon === line.length - 1 ? '' : ','}PART-HOLD-BACK=${value}`;
  return line.slice(0, a.start) + value + line.slice(a.end);
}

/**
 * Rendition reports under a part hold: the other rendition moves back by the same N parts, carried
 * across segment boundaries with this playlist's parts per segment (renditions of one stream are cut
 * alike). Without LAST-PART the report names a complete segment: LAST-MSN drops by ⌈N / parts⌉.
 */
function rewriteReportInParts(line: string, i: number, nParts: number, k: number, route: HlsRouter | undefined): string {
  const attrs = parseAttributeList(line, line.indexOf(':') + 1, i, 'EXT-X-RENDITION-REPORT');
  const edits: { start: number; end: number; text: string }[] = [];
  const msn = findAttribute(attrs, 'LAST-MSN');
  const part = findAttribute(attrs, 'LAST-PART');
  if (msn !== undefined) {
    const m = Number(msn.value);
    if (part !== undefined) {
      const pos = Math.max(0, m * k + Number(part.value) - nParts);
      edits.push({ start: msn.start, end: msn.end, text: String(Math.floor(pos / k)) });
      edits.push({ start: part.start, end: part.end, text: String(pos % k) });
    } else edits.push({ start: msn.start, end: msn.end, text: String(Math.max(0, m - Math.ceil(nParts / k))) });
  }
  const uri = findAttribute(attrs, 'URI');
  if (route !== undefined && uri !== undefined && isRoutableUri(uri.value))
    edits.push({ start: uri.start, end: uri.end, text: applyHlsRouter(route, uri.value, 'rendition-report') });
  edits.sort((a, b) => b.start - a.start);
  let s = line;
  for (const e of edits) s = s.slice(0, e.start) + e.text + s.slice(e.end);
  return s;
}

const LL_ROLE_MASK = (1 << LineRole.Part) | (1 << LineRole.PreloadHint) | (1 << LineRole.RenditionReport);
// What a server promises in EXT-X-SERVER-CONTROL by answering _HLS_ requests; HOLD-BACK stays.
const LL_CONTROL_ATTRS: ReadonlySet<string> = new Set(['CAN-BLOCK-RELOAD', 'CAN-SKIP-UNTIL', 'CAN-SKIP-DATERANGES', 'PART-HOLD-BACK']);

/** EXT-X-SERVER-CONTROL without the LL-HLS promises; undefined if nothing is left. */
function stripServerControl(line: string, i: number): string | undefined {
  const colon = line.indexOf(':');
  const attrs = parseAttributeList(line, colon + 1, i, 'EXT-X-SERVER-CONTROL');
  const kept = attrs.filter((a) => !LL_CONTROL_ATTRS.has(a.name));
  if (kept.length === attrs.length) return line;
  if (kept.length === 0) return undefined;
  return (
    line.slice(0, colon + 1) +
    kept.map((a) => line.slice(a.start - a.name.length - 1 - (a.quoted ? 1 : 0), a.end + (a.quoted ? 1 : 0))).join(',')
  );
}

const KIND_BY_ROLE: Readonly<Record<number, 'key' | 'init' | 'part' | 'preload-hint'>> = {
  [LineRole.Key]: 'key',
  [LineRole.Map]: 'init',
  [LineRole.Part]: 'part',
  [LineRole.PreloadHint]: 'preload-hint',
};

/** Lists history segments again before the origin's first segment, declaring keys, maps and discontinuities they need. */
function emitHistory(out: string[], ext: readonly HlsHistorySegment[], first: HlsMediaSegment, route: HlsRouter | undefined): void {
  let keys: readonly string[] = [];
  let map: string | undefined;
  let dsn = (ext[0] as HlsHistorySegment).discontinuitySequence;
  for (const h of ext) {
    if (!sameLines(h.keyLines, keys)) {
      if (keys.length > 0) out.push('#EXT-X-KEY:METHOD=NONE');
      for (const k of h.keyLines) out.push(routeTagLine(k, 'key', route));
      keys = h.keyLines;
    }
    if (h.mapLine !== undefined && h.mapLine !== map) out.push(routeTagLine(h.mapLine, 'init', route));
    map = h.mapLine;
    if (h.discontinuitySequence !== dsn) out.push('#EXT-X-DISCONTINUITY');
    dsn = h.discontinuitySequence;
    for (const t of h.tagLines) out.push(t);
    out.push(route !== undefined && isRoutableUri(h.uri) ? applyHlsRouter(route, h.uri, 'segment') : h.uri);
  }
  // The origin's own KEY lines for its first segment follow; older keys must not stay in force.
  if (keys.length > 0) out.push('#EXT-X-KEY:METHOD=NONE');
  if (first.discontinuitySequence !== dsn && !first.discontinuity) out.push('#EXT-X-DISCONTINUITY');
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function routeTagLine(line: string, kind: 'key' | 'init', route: HlsRouter | undefined): string {
  if (route === undefined) return line;
  const colon = line.indexOf(':');
  const uri = findAttribute(parseAttributeList(line, colon + 1, 0, kind === 'key' ? 'EXT-X-KEY' : 'EXT-X-MAP'), 'URI');
  return uri === undefined ? line : routeAttributeInLine(line, uri, route, kind);
}

function rewriteReport(line: string, i: number, shift: number, lastPart: number | undefined, route: HlsRouter | undefined): string {
  if (shift === 0 && route === undefined) return line;
  const attrs = parseAttributeList(line, line.indexOf(':') + 1, i, 'EXT-X-RENDITION-REPORT');
  // Edits applied right to left so earlier offsets stay valid.
  const edits: { start: number; end: number; text: string }[] = [];
  if (shift !== 0) {
    const msn = findAttribute(attrs, 'LAST-MSN');
    if (msn !== undefined) edits.push({ start: msn.start, end: msn.end, text: String(Math.max(0, Number(msn.value) - shift)) });
    const part = findAttribute(attrs, 'LAST-PART');
    if (part !== undefined) {
      if (lastPart !== undefined) edits.push({ start: part.start, end: part.end, text: String(lastPart) });
      else {
        // Our visible tail lists no parts: drop LAST-PART with its separating comma.
        const nameStart = part.start - 'LAST-PART='.length;
        const before = line.lastIndexOf(',', nameStart);
        if (before >= 0) edits.push({ start: before, end: part.end, text: '' });
        else edits.push({ start: nameStart, end: line[part.end] === ',' ? part.end + 1 : part.end, text: '' });
      }
    }
  }
  const uri = findAttribute(attrs, 'URI');
  if (route !== undefined && uri !== undefined && isRoutableUri(uri.value)) {
    const routed = applyHlsRouter(route, uri.value, 'rendition-report');
    edits.push({ start: uri.start, end: uri.end, text: routed });
  }
  edits.sort((a, b) => b.start - a.start);
  let s = line;
  for (const e of edits) s = s.slice(0, e.start) + e.text + s.slice(e.end);
  return s;
}
