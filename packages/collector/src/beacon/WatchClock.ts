import type { ValidBatch } from './ValidBatch.js';

/** A batch never counts more than this as watched (a probe flushes at least every beacon interval, ≤ 1 h). */
const MAX_WATCH_MS = 3_600_000;

/**
 * Time watched per batch, worked out once at ingest so that the fleet views only add it up (a
 * window function over every batch cost more than the rest of the fleet query): from the
 * previous batch's send to this one's when the previous seq came through this collector, else
 * (the first batch, a gap, after a restart) from the batch's first event. Bounded: the newest
 * `max` sessions are remembered.
 */
export class WatchClock {
  readonly #last = new Map<string, { seq: number; sentMs: number }>();

  constructor(private readonly max = 200_000) {}

  /** Sets `batch.watchMs`. */
  stamp(batch: ValidBatch): void {
    const prev = this.#last.get(batch.session);
    const from = prev !== undefined && prev.seq === batch.seq - 1 ? prev.sentMs : batch.firstAtMs;
    batch.watchMs = Math.min(MAX_WATCH_MS, Math.max(0, batch.sentMs - from));
    if (prev === undefined || batch.seq > prev.seq) {
      this.#last.delete(batch.session);
      this.#last.set(batch.session, { seq: batch.seq, sentMs: batch.sentMs });
      if (this.#last.size > this.max) this.#last.delete(this.#last.keys().next().value!);
    }
  }
}
