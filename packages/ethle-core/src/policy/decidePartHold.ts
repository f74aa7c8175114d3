import { modelPartHold, type ModelPartHoldResult } from '../model/modelPartHold.js';

export interface PartHoldInput {
  /** Backhaul RTT to the origin (measured, or configured), ms; undefined before any is known. */
  rttMs: number | undefined;
  /** Part (LL-HLS PART-TARGET) or chunk length, seconds. */
  partSeconds: number;
  /** The stream's bitrate, bits/s (measured segment sizes, else what the manifest advertises); undefined before either. */
  bitrateBps: number | undefined;
  /** The radio throughput the edge plans for, bits/s. */
  ranBps: number;
  /** The stream's N so far (undefined on its first decision). */
  current: number | undefined;
  /** Cap on N: one origin flow per held part. */
  maxHoldParts: number;
}

export interface PartHoldDecision {
  /** Parts to hold for every receiver of the stream. */
  n: number;
  /** What the model answered this time (null: not applicable — radio below bitrate — or no input yet). */
  modelled: number | null;
  reason: 'no-input' | ModelPartHoldResult['reason'];
}

/**
 * `holdParts: 'auto'`: how many parts an edge holds of a low-latency stream, from the part model
 * (modelPartHold, warm connections: the edge keeps one request per hinted part open at the origin,
 * so the part's flow never idles past its RTO). One N per stream, for every receiver, and it only
 * rises: a part hold costs a part duration of latency, so unlike whole segments there is little
 * to win by splitting receivers into groups, and a playlist whose held edge moves back would make
 * a player's blocking reload (`_HLS_msn`/`_HLS_part`) wait for what it already saw. Until RTT and
 * bitrate are known (the stream's first poll and segment), N stays where it is (0 at first: the
 * stream plays unheld until the edge can say why it should hold).
 */
export function decidePartHold(input: PartHoldInput): PartHoldDecision {
  const current = input.current ?? 0;
  if (input.rttMs === undefined || input.bitrateBps === undefined || !(input.rttMs > 0) || !(input.bitrateBps > 0)) {
    return { n: current, modelled: null, reason: 'no-input' };
  }
  const m = modelPartHold({
    rttSeconds: input.rttMs / 1000,
    partSeconds: input.partSeconds,
    bitrateBps: input.bitrateBps,
    ranBps: input.ranBps,
    start: 'warm',
    maxHoldParts: input.maxHoldParts,
  });
  return { n: Math.max(current, m.hold ?? 0), modelled: m.hold, reason: m.reason };
}
