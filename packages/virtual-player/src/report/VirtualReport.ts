import type { LatencySample, SegmentTiming, Summary } from '@ethle/qoe-probe';
import type { PlayoutStall } from '../playout/createPlayout.js';

// The probe's own types, not copies: a virtual report must stay what the probe reports.
export type { LatencySample, SegmentTiming, Summary };

/**
 * The report a virtual receiver writes: the QoE probe's `QoeReport` (packages/qoe-probe/src/report.ts)
 * field for field, so a RunResult built from it reads like one from Chromium. Times are epoch ms on
 * the player's clock; the probe's clock sync is unnecessary when the player shares the origin's
 * host clock (loopback, netlab namespaces).
 */

/**
 * A request as the probe times it (with `connection` new or reused, as the probe reads it from
 * Resource Timing), plus what a browser does not expose: which of the player's connections carried
 * it and how many requests that connection had finished before (0: a fresh flow).
 */
export interface VirtualSegmentTiming extends SegmentTiming {
  connectionId: number;
  previousRequests: number;
}

export interface ErrorEntry {
  at: number;
  code: string;
  source: string;
  detail: string;
  message: string;
  fatal: boolean;
}

export interface VirtualReport {
  /** 'hls' | 'dash' */
  target: string;
  session: string;
  startupMs: number | null;
  stalls: { count: number; totalMs: number; list: PlayoutStall[] };
  latency: Summary;
  edgeDistance: Summary;
  holdSeconds: number;
  latencySeries: LatencySample[];
  segments: { count: number; bytes: number; list: VirtualSegmentTiming[] };
  switches: never[];
  errors: ErrorEntry[];
  clock: { offsetMs: number; precisionMs: number; samples: number } | null;
  manifestLag: null;
  /** Stalls shorter than the stall threshold (not counted in `stalls`, as the probe does not see them). Not in the probe's report. */
  shortStalls: { count: number; totalMs: number };
  /** What this receiver is (not in the probe's report): lets a reader tell virtual runs from Chromium's. */
  receiver: 'virtual';
  /** The append delay this receiver modelled (VirtualPlayerConfig.appendMs): runs before it existed modelled none. Not in the probe's report. */
  appendMs: number;
  /** Where playback started on the player's timeline and how far that was behind the live edge it computed, s. */
  start: { position: number; offsetSeconds: number } | null;
}

/** Nearest-rank percentile, as the probe's summarize(). */
export function summarize(values: readonly number[]): Summary {
  const n = values.length;
  if (n === 0) return { current: null, mean: null, p50: null, p95: null, samples: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(n, Math.max(1, Math.ceil((p / 100) * n))) - 1]!;
  return { current: values[n - 1]!, mean: values.reduce((a, b) => a + b, 0) / n, p50: at(50), p95: at(95), samples: n };
}
