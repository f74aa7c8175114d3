import type { SegmentStart } from '../model/modelHold.js';

/** How an edge holds: one config, read by both edges (Node and service worker); createHoldPolicy builds the policy from it. */
export interface HoldPolicyConfig {
  /** 'auto': x from the model and what the edge measures (AutoHold); N: every receiver gets x = N (FixedHold). */
  hold: 'auto' | number;
  /**
   * Low-latency streams (LL-HLS parts, LL-DASH chunks) held in parts instead of whole segments:
   * N parts for every receiver of a stream, or 'auto' (the warm part model per stream, rising
   * only: decidePartHold). Undefined: low-latency streams are held in whole segments like any other.
   */
  holdParts?: number | 'auto';
  /** Operator cap on x and on parallel origin connections per stream (and on auto's N). */
  maxHold: number;
  /** The backhaul's initial congestion window (MSS). */
  initialWindow: number;
  /** Radio throughput when nothing better is known (Mbit/s). */
  defaultRanMbps: number;
  /** eq. 3 fails: send the receiver to the origin ('redirect') or serve it unheld ('pass-through'). */
  ranFailAction: 'redirect' | 'pass-through';
  /**
   * How long a receiver's radio measurements must cover, ms, before eq. 3 failing acts on it
   * (`ranFailAction`; shouldRedirect): their time-weighted mean over that window and the latest
   * must both be at or below the bitrate. Default 30 000, in [0, 600 000]. A redirect is for good,
   * and holding absorbs a dip shorter than the held buffer (x · l_seg: 4–6 s for 2 s segments);
   * a shared cell gives one user far less while the others send (the LTE-A cell at 50 % load: ~82
   * Mbit/s on average, 28–56 Mbit/s while others are ON, for sojourns of seconds), so a window
   * must outlast several such sojourns to tell a radio that cannot carry the stream on average
   * from one that dips. Two measurements ~4 s apart redirected a 48.8 Mbit/s stream's receiver
   * on that cell, which then stalled five times from the origin (issue 38). 30 s is five to seven
   * held buffers, ~15 measurements at one per 2 s segment; the cost is that a receiver whose
   * radio truly cannot carry the stream stays on the edge that long (as E2E would: holding does
   * not make it worse). 0: the last two measurements alone, the rule before.
   */
  redirectSustainMs?: number;
  /** Receiver sessions remembered at most (policy groups). */
  maxSessions?: number;
  /** A session not seen for this long is forgotten (ms). */
  sessionIdleMs?: number;
  /** One backhaul flow's windows (bytes) and loss rate, for the model (see decideStreamHold). */
  receiveWindowBytes?: number;
  sendWindowBytes?: number;
  lossRate?: number;
  /** Lowering x: the lower x must be supported this many segment periods and samples (nextStreamHold). */
  lowerAfterSegments?: number;
  lowerAfterSamples?: number;
  /**
   * How low auto's x may go within hold-x. 'model' (default): never below the model's x — the
   * paper's slow-start model is an optimistic bound (Section IV), so its x is the least that is
   * safe without evidence. 'measured': once the edge has steady-state backhaul samples, x may be
   * lowered below the model's, to 1, on the same dwell — for a backhaul the edge keeps warm (one
   * shared flow, prefetching every segment), where the measured rate beats a fresh flow's slow start.
   */
  holdFloor?: 'model' | 'measured';
  /**
   * How the model takes a segment fetch to start on the backhaul. 'slow-start' (default): the
   * paper's premise, a CUBIC/Reno origin that restarts an idle connection from its initial window.
   * 'warm': an origin that keeps its window across idle (BBR, or `tcp_slow_start_after_idle` = 0),
   * so a fetch costs one RTT plus the bytes at the window-limited rate. This is the x a receiver
   * joins at, before anything is measured, and the x it keeps: its player holds its distance to
   * the live edge (docs/experiments.md, "Cost: latency and startup").
   * 'learn': 'slow-start' until the origin's own fetches after idle tell (OriginStartLearner),
   * then whichever they show — for the receivers that join after that, and the floor x is lowered
   * toward on the usual dwell.
   */
  segmentStart?: SegmentStart | 'learn';
}
