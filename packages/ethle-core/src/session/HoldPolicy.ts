import { BackhaulSamples, type FetchRegime } from './BackhaulSamples.js';
import { decideStreamHold, type StreamHoldDecision } from './decideStreamHold.js';
import { PolicyGroups, type PolicyGroup } from './PolicyGroups.js';

/** How an edge holds: one config, read by both edges (Node and service worker). */
export interface HoldPolicyConfig {
  /** 'auto': x from the model and what the edge measures; N: every receiver gets x = N. */
  hold: 'auto' | number;
  /** Operator cap on x and on parallel origin connections per stream. */
  maxHold: number;
  /** The backhaul's initial congestion window (MSS). */
  initialWindow: number;
  /** Radio throughput when nothing better is known (Mbit/s). */
  defaultRanMbps: number;
  /** eq. 3 fails: send the receiver to the origin ('redirect') or serve it unheld ('pass-through'). */
  ranFailAction: 'redirect' | 'pass-through';
  /** Receiver sessions remembered at most (policy groups). */
  maxSessions?: number;
  /** A session not seen for this long is forgotten (ms). */
  sessionIdleMs?: number;
}

/** What an edge knows of one stream when it decides. */
export interface StreamContext {
  stream: string;
  origin: string;
  /** s_seg: measured mean, or what the manifest advertises × l_seg; undefined before either. */
  segmentBytes: number | undefined;
  segmentSeconds: number;
  /** Backhaul RTT to the stream's origin (ms), configured or measured; undefined before any. */
  rttMs: number | undefined;
}

/** Why x changed, with the backhaul rate it was decided on (the operator's main figure). */
export interface HoldChange {
  stream: string;
  hold: number;
  reason: string;
  backhaulMbps: number;
}

export type ReceiverDecision =
  /** Serve the stream held by x; `group` is the receiver's policy group (undefined: no evidence yet). */
  | { kind: 'hold'; x: number; group: PolicyGroup | undefined; from?: PolicyGroup | undefined }
  /** eq. 3 fails and the action is 'redirect': send the receiver to the origin. */
  | { kind: 'redirect'; ranMbps: number; bitrateMbps: number }
  /** eq. 3 fails and the action is 'pass-through': serve it unheld (ETHLE does not apply, III-B). */
  | { kind: 'pass'; x: 0; ranMbps: number; bitrateMbps: number };

/**
 * The one auto-hold policy of an edge (paper Section III), shared by the Node edge and the
 * service worker: x per stream (one source: this object), the receivers' policy groups, the
 * redirect decision, and the online correction from the backhaul rates the edge achieved. Pure:
 * the edge passes in time, measurements and contexts, and reads decisions; nothing here does I/O.
 *
 * x only rises while receivers are held by it (a receiver shown x segments less would skip them);
 * every change goes to `onChange`.
 */
export class HoldPolicy {
  readonly config: HoldPolicyConfig;
  readonly #onChange: (c: HoldChange) => void;
  /** Stream x in auto mode: the largest eq. 2 answer seen. */
  readonly #x = new Map<string, number>();
  readonly #originOf = new Map<string, string>();
  readonly #backhaul = new BackhaulSamples();
  readonly #groups: PolicyGroups;

  constructor(config: HoldPolicyConfig, onChange: (c: HoldChange) => void = () => undefined) {
    this.config = config;
    this.#onChange = onChange;
    this.#groups = new PolicyGroups(config.sessionIdleMs ?? 120_000, config.maxSessions ?? 100_000);
  }

  /** The x the stream's planner keeps the edge ahead by. No side effects. */
  streamHold(stream: string): number {
    const h = this.config.hold;
    return typeof h === 'number' ? h : (this.#x.get(stream) ?? 1);
  }

  /** Whether auto has decided a stream's x yet. */
  decided(stream: string): boolean {
    return typeof this.config.hold === 'number' || this.#x.has(stream);
  }

  /** The largest x in force among an origin's streams (what its steady state runs in parallel). */
  originHold(origin: string): number {
    if (typeof this.config.hold === 'number') return this.config.hold;
    let x = 0;
    for (const [stream, h] of this.#x) if (this.#originOf.get(stream) === origin) x = Math.max(x, h);
    return x;
  }

  /**
   * One segment fetch's backhaul rate (Mbit/s) with the mean number of flows it shared the
   * backhaul with: kept for the online check only in steady state (see BackhaulSamples).
   */
  addBackhaulSample(origin: string, mbps: number, meanFlows: number): FetchRegime {
    return this.#backhaul.add(origin, mbps, meanFlows, this.originHold(origin));
  }

  /** Median steady-state backhaul rate of an origin (Mbit/s), once there are enough samples. */
  measuredBackhaulMbps(origin: string): number | undefined {
    return this.#backhaul.median(origin);
  }

  /**
   * Before any receiver decision: x from what the first manifest tells (advertised bitrate, the
   * manifest fetch's RTT), so the planner's first round prefetches where a player shown this x
   * will start. A no-op once decided or without context.
   */
  provisional(ctx: StreamContext): void {
    if (this.decided(ctx.stream)) return;
    const d = this.#decide(ctx, this.config.defaultRanMbps);
    if (d === undefined) return;
    this.#raise(ctx, d, `${d.reason} (before any receiver, advertised bitrate)`);
  }

  /**
   * A receiver's manifest request: its group, the x it is served, or a redirect. `ranMbps` is the
   * best radio estimate the edge has for it (RNI, its own measurement, credible CMCD, the default).
   * Returns undefined when auto has no context yet (no segment size or RTT): the edge should wait
   * for the first segment's size, or serve the stream's current x.
   */
  receiver(ctx: StreamContext, session: string, ranMbps: number, nowMs: number): ReceiverDecision | undefined {
    const h = this.config.hold;
    if (typeof h === 'number') {
      // Forced x: every receiver is in the group its x means.
      const a = this.#groups.assign(ctx.stream, session, h === 0, nowMs);
      return { kind: 'hold', x: h, group: a.group, from: a.from };
    }
    const d = this.#decide(ctx, ranMbps);
    if (d === undefined) return undefined;
    this.#raise(ctx, d, d.reason);
    if (!d.eq3) {
      const bitrateMbps = ((ctx.segmentBytes ?? 0) * 8) / ctx.segmentSeconds / 1e6;
      return this.config.ranFailAction === 'redirect' ? { kind: 'redirect', ranMbps, bitrateMbps } : { kind: 'pass', x: 0, ranMbps, bitrateMbps };
    }
    const a = this.#groups.assign(ctx.stream, session, d.eq1, nowMs);
    return { kind: 'hold', x: a.group === 'hold-0' ? 0 : this.streamHold(ctx.stream), group: a.group, from: a.from };
  }

  /** Active sessions per group of a stream. */
  counts(stream: string): Record<PolicyGroup, number> {
    return this.#groups.counts(stream);
  }

  get sessions(): number {
    return this.#groups.size;
  }

  /** Forget sessions not seen for sessionIdleMs. */
  sweep(nowMs: number): void {
    this.#groups.sweep(nowMs);
  }

  /** A stream went idle: its x and its sessions go. */
  forgetStream(stream: string): void {
    this.#x.delete(stream);
    this.#originOf.delete(stream);
    this.#groups.dropStream(stream);
  }

  #decide(ctx: StreamContext, ranMbps: number): StreamHoldDecision | undefined {
    if (ctx.segmentBytes === undefined || ctx.rttMs === undefined || !(ctx.segmentSeconds > 0)) return undefined;
    return decideStreamHold({
      rttMs: Math.max(ctx.rttMs, 0.05),
      segmentBytes: ctx.segmentBytes,
      segmentSeconds: ctx.segmentSeconds,
      ranMbps,
      initialWindow: this.config.initialWindow,
      maxHold: this.config.maxHold,
      measuredBackhaulMbps: this.#backhaul.median(ctx.origin),
    });
  }

  #raise(ctx: StreamContext, d: StreamHoldDecision, reason: string): void {
    this.#originOf.set(ctx.stream, ctx.origin);
    const prev = this.#x.get(ctx.stream);
    if (prev !== undefined && d.hold <= prev) return;
    this.#x.set(ctx.stream, d.hold);
    this.#onChange({ stream: ctx.stream, hold: d.hold, reason, backhaulMbps: d.backhaulMbps });
  }
}
