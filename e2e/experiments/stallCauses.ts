import type { RunResult } from '@ethle/player-demo';

export type StallCause = 'hit' | 'coalesced' | 'miss' | 'idle';

/**
 * Where each stall of a run through the edge came from: the media segment the player was
 * downloading when it stalled, and what the edge had of it when asked — `hit` (whole: the radio
 * leg was too slow), `coalesced` or `miss` (still coming over the backhaul), or `idle` (no segment
 * in flight: the player was waiting for its playlist). Undefined for runs without the edge's
 * segment log (E2E, and run files written before commit 5da141b).
 */
export function stallCauses(r: RunResult): Record<StallCause, number> | undefined {
  const log = r.edge?.segmentRequests;
  if (log === undefined || log.length === 0) return undefined;
  const firstResult = new Map<string, StallCause>();
  for (const e of log) if (!firstResult.has(e.path)) firstResult.set(e.path, e.result);
  const media = r.report.segments.list.filter((s) => s.kind === 'media');
  const out: Record<StallCause, number> = { hit: 0, coalesced: 0, miss: 0, idle: 0 };
  for (const stall of r.report.stalls.list) {
    const inFlight = media
      .filter((s) => s.requestStart <= stall.start && stall.start < s.lastByte)
      .sort((a, b) => a.requestStart - b.requestStart)[0];
    out[inFlight === undefined ? 'idle' : (firstResult.get(new URL(inFlight.url).pathname) ?? 'miss')] += 1;
  }
  return out;
}
