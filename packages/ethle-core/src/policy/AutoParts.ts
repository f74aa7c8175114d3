import { decidePartHold } from './decidePartHold.js';
import type { DecisionInput, PartHoldChange, StreamContext } from './HoldPolicy.js';
import type { PartHold } from './PartHold.js';
import type { RadioEstimate } from './RadioEstimate.js';

/**
 * `holdParts: 'auto'`: each low-latency stream's N from the warm part model (decidePartHold) on
 * the stream's RTT and bitrate and the radio estimate of the receiver asking — the same estimate
 * auto's x is decided on — rising only, at most x_max. The stream's N is kept here, its one owner,
 * from its first decision until the stream goes (forget).
 */
export class AutoParts implements PartHold {
  readonly max: number;
  readonly #onChange: (c: PartHoldChange) => void;
  /** N per stream, set by its first decision (0 while there was no input). */
  readonly #n = new Map<string, number>();

  constructor(maxHold: number, onChange: (c: PartHoldChange) => void) {
    this.max = maxHold;
    this.#onChange = onChange;
  }

  /**
   * A stream's first decision waits for its first segment's size (one backhaul round trip) rather
   * than serve unheld and then move the playlist's edge back under the player.
   */
  needs(stream: string): DecisionInput {
    return this.#n.has(stream) ? 'context' : 'size';
  }

  decide(ctx: StreamContext, radio: RadioEstimate, partSeconds: number): number {
    const current = this.#n.get(ctx.stream);
    const bitrateBps = ctx.segmentBytes === undefined ? undefined : (ctx.segmentBytes * 8) / ctx.segmentSeconds;
    const d = decidePartHold({ rttMs: ctx.rttMs, partSeconds, bitrateBps, ranBps: radio.bps, current, maxHoldParts: this.max });
    this.#n.set(ctx.stream, d.n);
    if (d.n !== (current ?? 0)) {
      this.#onChange({
        stream: ctx.stream,
        from: current ?? 0,
        to: d.n,
        reason: d.reason,
        rttMs: ctx.rttMs,
        bitrateMbps: bitrateBps === undefined ? undefined : bitrateBps / 1e6,
      });
    }
    return d.n;
  }

  forget(stream: string): void {
    this.#n.delete(stream);
  }
}
