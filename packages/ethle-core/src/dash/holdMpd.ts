import { HOLD_LIMITS } from '../model/HOLD_LIMITS.js';
import { secondsToTimerMs } from '../time/timerMs.js';
import { EthleError, isEthleError } from '../errors/EthleError.js';
import type { UriRouter } from '../url/UriRouter.js';
import { localName, type XmlElement } from '../xml/scanXml.js';
import type { MpdInfo, MpdPeriod, MpdTemplate, MpdTimelineEntry } from './MpdInfo.js';
import { parseMpd } from './parseMpd.js';
import { periodEndTicks } from './periodEndTicks.js';
import { routeMpdEdits, type TextEdit } from './routeMpdEdits.js';
import { timelineCounts } from './timelineCounts.js';

export interface DashHoldOptions {
  /** x: segments to hold back from the newest. */
  hold: number;
  /**
   * Routes the MPD's URIs back through the edge (kinds `segment`, `init`, `index`, `base-url`,
   * `location`; see routeMpdEdits); e.g. `createEdgeRouter`. A routed BaseURL loses any query: it
   * only serves as a resolution base.
   */
  route?: UriRouter;
  /**
   * The origin URL the MPD was fetched from: makes an absolute BaseURL nested under another one
   * exact to rewrite (see routeMpdEdits).
   */
  manifestUrl?: string;
  /** Now, ms since the epoch: needed to count S@r=−1 runs at the live edge. */
  nowMs?: number;
  /**
   * Low-latency DASH: hold N chunks instead of whole segments (give `hold: 0`). Every
   * `$Number$` template must announce its segments early (finite @availabilityTimeOffset below
   * @duration): a chunk is duration − availabilityTimeOffset long (the segment is announced once
   * its first chunk is done, DASH-IF IOP low latency), and AST moves later by N chunks of the
   * longest such template. An MPD without chunked templates is held by nothing (reason 'no-chunks').
   */
  holdChunks?: number;
}

export interface DashHoldResult {
  text: string;
  requestedHold: number;
  appliedHold: number;
  /**
   * Latency the hold adds, seconds: the AST shift, or how much earlier the live period's listed
   * media now ends (over all its timelines, the earliest end before minus the earliest end after).
   * The edge declares it (X-Ethle-Hold-Seconds) so a probe can recover the true latency; it is 0
   * whenever appliedHold is.
   */
  offsetSeconds: number;
  /** 'unheld-passthrough': a live MPD this rewriter cannot hold, served routed but unheld (see `reason`). */
  mode: 'ast-shift' | 'timeline-trim' | 'static-passthrough' | 'unheld-passthrough';
  /**
   * Why less than requested was held: 'short-timeline' (the live period lists too few segments;
   * one always stays), or why nothing could be: 'segment-list' / 'segment-base' (no template to
   * shift or trim), 'no-template' (a Representation without any addressing element),
   * 'mixed-addressing' (SegmentTimeline and @duration templates in one MPD: no single lever holds both).
   */
  reason?: 'short-timeline' | 'segment-list' | 'segment-base' | 'no-template' | 'mixed-addressing' | 'no-chunks';
  /** `holdChunks` only: the chunks held (N, or 0 with `reason`) and one chunk's length, seconds. */
  appliedChunks?: number;
  chunkSeconds?: number;
  /**
   * Set when the held text depends on the time as well as on the origin text: an S@r=−1 run at the
   * live edge grows with time, so the same origin MPD held later lists more. The held text is right
   * until this instant (ms since the epoch, when the run's next segment completes); hold again then.
   */
  validUntilMs?: number;
}

const UNHELD_REASON = { list: 'segment-list', base: 'segment-base', none: 'no-template' } as const;

/**
 * Holds back the newest x segments of a dynamic MPD (ETHLE, paper Section III, footnote 2).
 *
 * - `$Number$` templates without a timeline: availabilityStartTime moves later by x·l_seg, so every
 *   period's segments become available x segments later (one lever for all periods and adaptation
 *   sets, unlike Period@start). `offsetSeconds` = that shift.
 * - SegmentTimeline (`$Time$` or `$Number$`): the last x segments go from each timeline of the live
 *   period (the last one that has started at `nowMs`; without it, the last one), splitting @r runs
 *   (r = −1 is first counted against `nowMs`, never past the period end). A live period listing no
 *   more than the segments still to hold goes whole (with any announced after it) and the period
 *   before gives the rest, so x stays x across a Period boundary; one segment of the first period
 *   always stays. A period that ended before that is never trimmed: its media is complete, and a
 *   hole at its end would never be filled. AST moves later by how much earlier the listed media
 *   now ends (`offsetSeconds`): the MPD reads as one from an origin running that much late, and a
 *   player's clock-based live edge matches the trimmed end.
 * - SegmentList / SegmentBase, or templates mixing both kinds: passed through unheld (mode
 *   'unheld-passthrough', appliedHold 0, `reason` says why) — routed, so the player stays on the edge.
 *
 * Only the edited attribute values, S elements and URIs change; every other byte stays as it was.
 * Static MPDs are routed but never held. Throws EthleError only; never returns a half-rewritten MPD.
 */
export function holdMpd(text: string, o: DashHoldOptions): DashHoldResult {
  return holdMpdText(text, o, undefined);
}

/**
 * holdMpd on an MPD already parsed (`info` is `parseMpd(text)`): a stream's loader parses each
 * origin version once and holds it at every x from that one parse. Core-internal.
 */
export function holdParsedMpd(text: string, info: MpdInfo, o: DashHoldOptions): DashHoldResult {
  return holdMpdText(text, o, info);
}

function holdMpdText(text: string, o: DashHoldOptions, parsed: MpdInfo | undefined): DashHoldResult {
  if (!Number.isInteger(o?.hold) || o.hold < 0 || o.hold > HOLD_LIMITS.max) {
    throw new EthleError('ERR_DASH_INVALID_OPTIONS', `hold must be an integer in [0, ${HOLD_LIMITS.max}], got ${String(o?.hold)}`);
  }
  const chunks = o.holdChunks;
  if (chunks !== undefined && (!Number.isInteger(chunks) || chunks < 0 || chunks > HOLD_LIMITS.max * 10 || o.hold !== 0)) {
    throw new EthleError(
      'ERR_DASH_INVALID_OPTIONS',
      `holdChunks must be an integer in [0, ${HOLD_LIMITS.max * 10}] with hold 0, got ${String(chunks)} (hold ${o.hold})`,
    );
  }
  const info = parsed ?? parseMpd(text);
  const edits: TextEdit[] = o.route ? routeMpdEdits(text, info.root, o.route, o.manifestUrl) : [];
  const done = (r: Omit<DashHoldResult, 'text' | 'requestedHold'>): DashHoldResult => ({
    text: finish(text, edits),
    requestedHold: o.hold,
    ...r,
  });

  if (info.type === 'static') return done({ appliedHold: 0, offsetSeconds: 0, mode: 'static-passthrough' });
  const reps = info.periods.flatMap((p) => p.representations);
  const unheld = reps.find((r) => r.addressing !== 'template');
  if (unheld !== undefined)
    return done({
      appliedHold: 0,
      offsetSeconds: 0,
      mode: 'unheld-passthrough',
      reason: UNHELD_REASON[unheld.addressing as keyof typeof UNHELD_REASON],
    });
  const templates = reps.map((r) => r.template!);
  const timelines = templates.filter((t) => t.timeline !== undefined).length;
  if (timelines > 0 && timelines !== templates.length)
    return done({ appliedHold: 0, offsetSeconds: 0, mode: 'unheld-passthrough', reason: 'mixed-addressing' });

  if (chunks !== undefined) {
    // Chunked templates only: a chunk is what a segment is announced early by less than its length.
    const chunkSecs = templates.map((t) =>
      t.timeline === undefined &&
      t.duration !== undefined &&
      Number.isFinite(t.availabilityTimeOffset) &&
      t.availabilityTimeOffset > 0 &&
      t.availabilityTimeOffset < t.duration / t.timescale
        ? t.duration / t.timescale - t.availabilityTimeOffset
        : undefined,
    );
    if (templates.length === 0 || chunkSecs.some((c) => c === undefined))
      return done({ appliedHold: 0, offsetSeconds: 0, mode: 'ast-shift', reason: 'no-chunks', appliedChunks: 0 });
    const chunkSeconds = Math.max(...(chunkSecs as number[]));
    const offsetSeconds = shiftAst(info, chunks * chunkSeconds, edits);
    return done({ appliedHold: 0, offsetSeconds, mode: 'ast-shift', appliedChunks: chunks, chunkSeconds });
  }
  if (timelines === 0) {
    if (o.hold === 0 || templates.length === 0) return done({ appliedHold: 0, offsetSeconds: 0, mode: 'ast-shift' });
    const longest = Math.max(...templates.map((t) => t.duration! / t.timescale));
    const offsetSeconds = shiftAst(info, o.hold * longest, edits);
    return done({ appliedHold: o.hold, offsetSeconds, mode: 'ast-shift' });
  }
  return holdTimelines(info, o, edits, done);
}

interface LiveTimeline {
  entries: MpdTimelineEntry[];
  template: MpdTemplate;
  counts: number[];
  nowBound: boolean[];
  total: number;
}

function holdTimelines(
  info: MpdInfo,
  o: DashHoldOptions,
  edits: TextEdit[],
  done: (r: Omit<DashHoldResult, 'text' | 'requestedHold'>) => DashHoldResult,
): DashHoldResult {
  const mode = 'timeline-trim';
  if (o.hold === 0) return done({ appliedHold: 0, offsetSeconds: 0, mode });
  // The live period: the last one that has started. One announced ahead of time is not trimmed —
  // its segments are not available yet, so trimming them would hold nothing the player could see.
  const nowSeconds = o.nowMs === undefined ? Number.POSITIVE_INFINITY : (o.nowMs - info.availabilityStartTimeMs) / 1000;
  let li = info.periods.length - 1;
  while (li > 0 && info.periods[li]!.startSeconds > nowSeconds) li--;
  let tls = liveTimelines(info, info.periods[li]!, o.nowMs);
  if (tls.length === 0) return done({ appliedHold: 0, offsetSeconds: 0, mode, reason: 'short-timeline' });
  const periodEls = info.root.children.filter((c) => localName(c) === 'Period');
  let validUntilMs: number | undefined;
  const noteGrowth = (p: MpdPeriod, list: LiveTimeline[]): void => {
    for (const tl of list) {
      const i = tl.entries.length - 1;
      if (!tl.nowBound[i]) continue;
      // The run grows when its next segment completes; until then this text is exact.
      const s = tl.entries[i]!;
      const at =
        info.availabilityStartTimeMs +
        (p.startSeconds + (s.t + (tl.counts[i]! + 1) * s.d - tl.template.presentationTimeOffset) / tl.template.timescale) * 1000;
      validUntilMs = Math.min(validUntilMs ?? at, at);
    }
  };
  // Where the listed media ends now: the earliest end over the live period's timelines.
  const endBefore = info.periods[li]!.startSeconds + Math.min(...tls.map((tl) => secsOf(tl, lastEnd(tl))));
  // A live period that lists no more than x segments would not have started yet at an origin
  // running x segments late: it goes whole, and the rest of the hold comes from the period before
  // (which then reads as the live one, open-ended). Trimming within the young period alone would
  // hold less — and move AST less — for its first x segments, every period (issue 15, periods.mpd).
  let remaining = o.hold;
  const removePeriod = (k: number): void => {
    const el = periodEls[k]!;
    // The period's own rewrites (routed URIs) go with it.
    for (let i = edits.length - 1; i >= 0; i--) if (edits[i]!.start >= el.start && edits[i]!.end <= el.end) edits.splice(i, 1);
    edits.push({ start: el.start, end: el.end, text: '' });
  };
  const firstLive = li;
  while (li > 0 && Math.min(...tls.map((t) => t.total)) <= remaining) {
    remaining -= Math.min(...tls.map((t) => t.total));
    noteGrowth(info.periods[li]!, tls);
    removePeriod(li);
    li--;
    tls = liveTimelines(info, info.periods[li]!, o.nowMs);
  }
  // Periods announced ahead of a removed live one are further ahead still: they go too.
  if (li < firstLive) for (let k = firstLive + 1; k < info.periods.length; k++) removePeriod(k);
  const live = info.periods[li]!;
  // One count for every timeline of the period, so audio and video stay aligned; one segment always stays.
  const trimmed = Math.max(0, Math.min(remaining, ...tls.map((t) => t.total - 1)));
  const applied = o.hold - remaining + trimmed;
  let endAfter = Number.POSITIVE_INFINITY;
  for (const tl of tls) {
    const trim = trimTimeline(tl, trimmed);
    edits.push(...trim.edits);
    endAfter = Math.min(endAfter, live.startSeconds + secsOf(tl, trim.endAfter));
  }
  noteGrowth(live, tls);
  // AST moves later by as much as the listed media now ends earlier: the MPD reads as one from an
  // origin running `offsetSeconds` late. Players place their live edge by AST and the clock
  // (dash.js does unless told to use the timeline), so without the shift a player aimed at the
  // origin's edge — ahead of the trimmed timeline — and played at a latency set by its own target
  // delay and the MPD refreshes, not by the hold (issue 15 item 9: ~2 s more than declared).
  const offsetSeconds = applied === 0 ? 0 : shiftAst(info, endBefore - endAfter, edits);
  return done({
    appliedHold: applied,
    offsetSeconds,
    mode,
    ...(applied < o.hold ? { reason: 'short-timeline' as const } : {}),
    ...(validUntilMs !== undefined ? { validUntilMs } : {}),
  });
}

/** Ticks of a timeline as seconds from its period's start. */
const secsOf = (tl: LiveTimeline, ticks: number): number => (ticks - tl.template.presentationTimeOffset) / tl.template.timescale;

/** The end of a timeline's last counted segment, ticks. */
function lastEnd(tl: LiveTimeline): number {
  let last = tl.entries.length - 1;
  while (last > 0 && tl.counts[last] === 0) last--;
  return tl.entries[last]!.t + tl.counts[last]! * tl.entries[last]!.d;
}

/** The distinct timelines of a period (one shared through an AdaptationSet template counts once), with their segment counts. */
function liveTimelines(info: MpdInfo, p: MpdPeriod, nowMs: number | undefined): LiveTimeline[] {
  const out: LiveTimeline[] = [];
  const seen = new Set<XmlElement>();
  for (const r of p.representations) {
    const t = r.template!;
    const entries = t.timeline!;
    const el = entries[0]!.element.parent!;
    if (seen.has(el)) continue;
    seen.add(el);
    const nowTicks =
      nowMs === undefined
        ? Number.POSITIVE_INFINITY
        : t.presentationTimeOffset + ((nowMs - info.availabilityStartTimeMs) / 1000 - p.startSeconds) * t.timescale;
    const { counts, nowBound } = timelineCounts(entries, periodEndTicks(p, t), nowTicks);
    if (counts.some(Number.isNaN)) throw new EthleError('ERR_DASH_INVALID_OPTIONS', 'holding a timeline that ends with S@r=-1 needs nowMs');
    out.push({ entries, template: t, counts, nowBound, total: counts.reduce((a, b) => a + b, 0) });
  }
  return out;
}

/** Removes the last `n` segments of a timeline: whole S elements from the end, then a shorter @r. */
function trimTimeline(tl: LiveTimeline, n: number): { edits: TextEdit[]; endBefore: number; endAfter: number } {
  const edits: TextEdit[] = [];
  const { entries, counts } = tl;
  let last = entries.length - 1;
  while (last > 0 && counts[last] === 0) last--;
  const endBefore = entries[last]!.t + counts[last]! * entries[last]!.d;
  let endAfter = endBefore;
  let remaining = n;
  for (let i = entries.length - 1; i >= 0 && remaining > 0; i--) {
    const s = entries[i]!;
    const c = counts[i]!;
    const e = s.element;
    if (c <= remaining) {
      edits.push({ start: e.start, end: e.end, text: '' });
      remaining -= c;
      endAfter = s.t;
    } else {
      const newR = c - remaining - 1;
      const rAttr = e.attrs.find((a) => a.name === 'r');
      if (rAttr) edits.push({ start: rAttr.valueStart, end: rAttr.valueEnd, text: String(newR) });
      else edits.push({ start: e.start + 1 + e.name.length, end: e.start + 1 + e.name.length, text: ` r="${newR}"` });
      endAfter = s.t + (newR + 1) * s.d;
      remaining = 0;
    }
  }
  return { edits, endBefore, endAfter };
}

function finish(text: string, edits: TextEdit[]): string {
  if (edits.length === 0) return text;
  const out = applyEdits(text, edits);
  try {
    parseMpd(out);
  } catch (e) {
    // Our own edit broke the document: a bug, reported as such rather than served.
    throw new EthleError('ERR_DASH_MALFORMED', `rewrite produced an invalid MPD: ${isEthleError(e) ? e.message : String(e)}`);
  }
  return out;
}

function applyEdits(text: string, edits: TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new EthleError('ERR_DASH_MALFORMED', 'overlapping rewrites');
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at);
}

/**
 * Move AST later by `seconds` (an edit) and return the shift it really is. The text holds whole
 * milliseconds and a Date truncates a fraction: 4 segments of 1001/6000 s would move AST 0.67 ms
 * short, and in that instant the held MPD would list a segment before x newer ones exist. So the
 * shift, a duration, is rounded up like every other (timerMs): held segments are never early.
 */
function shiftAst(info: MpdInfo, seconds: number, edits: TextEdit[]): number {
  if (!(seconds > 0)) return 0;
  const ms = secondsToTimerMs(seconds);
  const a = info.availabilityStartTimeAttr!;
  edits.push({ start: a.valueStart, end: a.valueEnd, text: new Date(info.availabilityStartTimeMs + ms).toISOString() });
  return ms / 1000;
}
