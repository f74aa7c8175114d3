import { summarizeRun, type RunResult } from '@ethle/player-demo';

/** One receiver of a run: where it joined from and what it saw (null: it never got there). */
export interface ReceiverFigures {
  receiver: number;
  address: string;
  joinMs: number;
  startupS: number | null;
  stalls: number | null;
  stallS: number | null;
  latencyS: number | null;
  /** Why it never played (its first request failed), if so. */
  error?: string;
}

/** What N receivers cost the backhaul and the origin in one run (issue 16 item 5). */
export interface ScaleFigures {
  receivers: number;
  played: number;
  /** Media segments the origin served at least once. */
  segments: number;
  /** Origin fetches per segment: ~1 through the edge, ~N for E2E. */
  originFetchesPerSegment: number | null;
  originFetchesPerSegmentMax: number | null;
  /** The segments the origin served more than once, with how often (bounded by the run's segments). */
  originRefetched: Record<string, number>;
  /** Origin bytes (everything it sent) per segment, and that over the segment's size: copies of each segment the backhaul carried. */
  originBytesPerSegment: number | null;
  copiesPerSegment: number | null;
  /** Backhaul, origin → edge, on the wire (IP datagrams), Mbit/s: the run's mean, the 95th percentile and maximum of 1 s windows. */
  backhaulMbps: { mean: number; p95: number | null; max: number | null };
  backhaulCapMbps?: number;
  /** Mean backhaul rate over its cap. */
  backhaulUtilisation?: number;
  /** Receivers the edge redirected to the origin (eq. 3), through the edge only. */
  edgeRedirects?: number;
}

export type Outcome = { receiver: number; run: RunResult } | { receiver: number; error: string };

/** The q-quantile (0..1) of numbers, nearest rank; null for none. */
export function quantile(xs: number[], q: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/**
 * Per-receiver and per-run figures from what a run collected. `backhaulBytes`: the backhaul's
 * cumulative downstream bytes at the start and then about once a second (1 s windows).
 */
export function scaleFigures(o: {
  outcomes: Outcome[];
  addresses: string[];
  offsetsMs: number[];
  originFetches: Record<string, number>;
  originBytes: number;
  segmentBytes: number;
  backhaulBytes: number[];
  backhaulBytesTotal: number;
  playedS: number;
  backhaulCapMbps?: number;
}): { receivers: ReceiverFigures[]; scale: ScaleFigures } {
  const receivers = o.outcomes.map((x): ReceiverFigures => {
    const base = { receiver: x.receiver, address: o.addresses[x.receiver] ?? '', joinMs: o.offsetsMs[x.receiver] ?? 0 };
    if ('error' in x) return { ...base, startupS: null, stalls: null, stallS: null, latencyS: null, error: x.error };
    const m = summarizeRun(x.run);
    return { ...base, startupS: m.startupS, stalls: m.stallCount, stallS: m.stallS, latencyS: m.latencyS };
  });
  const fetches = Object.values(o.originFetches);
  const segments = fetches.length;
  const windows = o.backhaulBytes.slice(1).map((b, i) => ((b - o.backhaulBytes[i]!) * 8) / 1e6);
  const mean = o.playedS > 0 ? (o.backhaulBytesTotal * 8) / 1e6 / o.playedS : 0;
  const perSegment = segments ? o.originBytes / segments : null;
  return {
    receivers,
    scale: {
      receivers: o.outcomes.length,
      played: receivers.filter((r) => r.startupS !== null).length,
      segments,
      originFetchesPerSegment: segments ? fetches.reduce((a, b) => a + b, 0) / segments : null,
      originFetchesPerSegmentMax: segments ? Math.max(...fetches) : null,
      originRefetched: Object.fromEntries(Object.entries(o.originFetches).filter(([, k]) => k > 1)),
      originBytesPerSegment: perSegment,
      copiesPerSegment: perSegment === null ? null : perSegment / o.segmentBytes,
      backhaulMbps: { mean, p95: quantile(windows, 0.95), max: windows.length ? Math.max(...windows) : null },
      ...(o.backhaulCapMbps ? { backhaulCapMbps: o.backhaulCapMbps, backhaulUtilisation: mean / o.backhaulCapMbps } : {}),
    },
  };
}
