import type { ClockData, ErrorData, LatencySample, SegmentTiming, StartupData, SwitchData } from './Events.js';
import { summarize, type Summary } from './latency/summarize.js';
import type { Stall } from './stall/createStallDetector.js';

export interface QoeReport {
  /** 'hls' | 'dash' | 'shaka' | 'media' */
  target: string;
  session: string;
  /** Load/play request → first rendered frame, ms; null before the first frame. */
  startupMs: number | null;
  stalls: { count: number; totalMs: number; list: Stall[] };
  /** True live latency, s. */
  latency: Summary;
  /** The player's distance to the manifest's live edge, s. */
  edgeDistance: Summary;
  /** Latest X-Ethle-Hold-Seconds, s (0 when none was declared). */
  holdSeconds: number;
  /** Latency samples over time (newest maxEntries). */
  latencySeries: LatencySample[];
  segments: { count: number; bytes: number; list: SegmentTiming[] };
  switches: SwitchData[];
  errors: ErrorData[];
  clock: ClockData | null;
  /**
   * HLS: how long after a segment's production ended the playlist started listing it, measured
   * from playlist fetches against the synced clock (≈ 0 at an origin; the hold, plus the edge's
   * polling delay, behind an ETHLE edge). null for DASH / before it is known.
   */
  manifestLag: { ms: number; precisionMs: number } | null;
}

/** Everything report() is made of; the probe appends, report is computed on demand. */
export interface ReportState {
  target: string;
  session: string;
  startup: StartupData | null;
  stalls: Stall[];
  stallCount: number;
  stallTotalMs: number;
  latency: number[];
  edge: number[];
  holdSeconds: number;
  series: LatencySample[];
  segments: SegmentTiming[];
  segmentCount: number;
  segmentBytes: number;
  switches: SwitchData[];
  errors: ErrorData[];
  clock: ClockData | null;
}

export function emptyReportState(target: string, session: string): ReportState {
  return {
    target,
    session,
    startup: null,
    stalls: [],
    stallCount: 0,
    stallTotalMs: 0,
    latency: [],
    edge: [],
    holdSeconds: 0,
    series: [],
    segments: [],
    segmentCount: 0,
    segmentBytes: 0,
    switches: [],
    errors: [],
    clock: null,
  };
}

/** Append, dropping the oldest beyond max (lists are bounded so a day-long session stays small). */
export function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

/**
 * The report a beacon carries: without the per-segment list and the latency series, which went
 * out as events already — a session's full lists would not fit sendBeacon's 64 KB.
 */
export function beaconReport(r: QoeReport): Omit<QoeReport, 'segments' | 'latencySeries'> & { segments: { count: number; bytes: number } } {
  const { latencySeries: _series, segments, ...rest } = r;
  return { ...rest, segments: { count: segments.count, bytes: segments.bytes } };
}

export function buildReport(s: ReportState, manifestLag: QoeReport['manifestLag'] = null): QoeReport {
  return {
    target: s.target,
    session: s.session,
    startupMs: s.startup?.startupMs ?? null,
    stalls: { count: s.stallCount, totalMs: s.stallTotalMs, list: [...s.stalls] },
    latency: summarize(s.latency),
    edgeDistance: summarize(s.edge),
    holdSeconds: s.holdSeconds,
    latencySeries: [...s.series],
    segments: { count: s.segmentCount, bytes: s.segmentBytes, list: [...s.segments] },
    switches: [...s.switches],
    errors: [...s.errors],
    clock: s.clock,
    manifestLag,
  };
}
