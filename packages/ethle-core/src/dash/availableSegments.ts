import { EthleError } from '../errors/EthleError.js';
import { expandTemplate } from './expandTemplate.js';
import type { MpdInfo, MpdPeriod, MpdRepresentation, MpdTemplate } from './MpdInfo.js';
import { periodEndTicks } from './periodEndTicks.js';
import { timelineCounts } from './timelineCounts.js';

/** One media segment of one representation. */
export interface DashSegment {
  periodId: string | undefined;
  representationId: string;
  /** $Number$ of the segment (timeline: startNumber + index). An id in production order. */
  number: number;
  /** Media time of its start, template timescale units ($Time$). */
  time: number;
  timescale: number;
  /** Presentation interval relative to availabilityStartTime, seconds. */
  startSeconds: number;
  endSeconds: number;
  /** When it becomes available, ms since the epoch. */
  availableAtMs: number;
  /** The expanded media template, relative to the representation's BaseURLs (not resolved). */
  url: string;
}

export interface AvailableOptions {
  /** Keep at most this many of the newest segments per representation (default 256). */
  maxPerRepresentation?: number;
}

/** Guard against absurd timelines (r in the millions, tiny durations over days). */
const MAX_EXPANSION = 200_000;

/**
 * Segments available at `nowMs` (pure; `now` is an argument), per representation, oldest first.
 * `$Number$`: from AST, Period@start, @duration and timeShiftBufferDepth; SegmentTimeline: its S
 * entries (r = −1 repeats until the next entry, the period end or now).
 */
export function availableSegments(info: MpdInfo, nowMs: number, o: AvailableOptions = {}): DashSegment[] {
  const max = o.maxPerRepresentation ?? 256;
  const out: DashSegment[] = [];
  for (const p of info.periods) {
    for (const r of p.representations) {
      if (!r.template?.media) continue;
      const segs = r.template.timeline
        ? timelineSegments(info, p, r, r.template, nowMs)
        : numberSegments(info, p, r, r.template, nowMs, max);
      out.push(...segs.slice(Math.max(0, segs.length - max)));
    }
  }
  return out;
}

function make(info: MpdInfo, p: MpdPeriod, r: MpdRepresentation, t: MpdTemplate, number: number, time: number, d: number): DashSegment {
  const startSeconds = p.startSeconds + (time - t.presentationTimeOffset) / t.timescale;
  const endSeconds = startSeconds + d / t.timescale;
  return {
    periodId: p.id,
    representationId: r.id,
    number,
    time,
    timescale: t.timescale,
    startSeconds,
    endSeconds,
    availableAtMs: info.availabilityStartTimeMs + endSeconds * 1000,
    url: expandTemplate(t.media!, { RepresentationID: r.id, Number: number, Bandwidth: r.bandwidth, Time: time }),
  };
}

function numberSegments(info: MpdInfo, p: MpdPeriod, r: MpdRepresentation, t: MpdTemplate, nowMs: number, max: number): DashSegment[] {
  const D = t.duration! / t.timescale;
  const periodCount = p.durationSeconds === undefined ? Number.POSITIVE_INFINITY : Math.ceil(p.durationSeconds / D - 1e-9);
  let first = 0;
  let last: number;
  if (info.type === 'static') {
    if (!Number.isFinite(periodCount)) return [];
    last = periodCount - 1;
  } else {
    const elapsed = (nowMs - info.availabilityStartTimeMs) / 1000 - p.startSeconds;
    last = Math.min(periodCount - 1, Math.floor(elapsed / D + 1e-9) - 1);
    if (info.timeShiftBufferDepthSeconds !== undefined)
      first = Math.max(0, Math.ceil((elapsed - info.timeShiftBufferDepthSeconds) / D - 1e-9) - 1);
  }
  first = Math.max(first, last - max + 1);
  const out: DashSegment[] = [];
  for (let i = first; i <= last; i++)
    out.push(make(info, p, r, t, t.startNumber + i, t.presentationTimeOffset + i * t.duration!, t.duration!));
  return out;
}

function timelineSegments(info: MpdInfo, p: MpdPeriod, r: MpdRepresentation, t: MpdTemplate, nowMs: number): DashSegment[] {
  const out: DashSegment[] = [];
  const tl = t.timeline!;
  const nowTicks =
    info.type === 'static'
      ? Number.POSITIVE_INFINITY
      : t.presentationTimeOffset + ((nowMs - info.availabilityStartTimeMs) / 1000 - p.startSeconds) * t.timescale;
  const { counts } = timelineCounts(tl, periodEndTicks(p, t), nowTicks);
  let n = t.startNumber;
  outer: for (let i = 0; i < tl.length; i++) {
    const s = tl[i]!;
    const count = counts[i]!;
    if (Number.isNaN(count)) throw new EthleError('ERR_DASH_MALFORMED', 'S@r=-1 with nothing to end it');
    if (out.length + count > MAX_EXPANSION)
      throw new EthleError('ERR_DASH_MALFORMED', 'SegmentTimeline expands to an absurd number of segments');
    for (let k = 0; k < count; k++) {
      const time = s.t + k * s.d;
      // Listed but not yet complete (a packager that announces early): neither it nor later ones are available.
      if (info.type === 'dynamic' && time + s.d > nowTicks + 1e-6) break outer;
      out.push(make(info, p, r, t, n, time, s.d));
      n += 1;
    }
  }
  return out;
}

/** The expanded initialization URL of a representation (relative to its BaseURLs), if any. */
export function initializationUrl(r: MpdRepresentation): string | undefined {
  const init = r.template?.initialization;
  return init === undefined ? undefined : expandTemplate(init, { RepresentationID: r.id, Bandwidth: r.bandwidth });
}
