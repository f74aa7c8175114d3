import type { ValidBatch } from '../beacon/ValidBatch.js';
import { CollectorError } from '../errors/CollectorError.js';
import type { Store } from './Store.js';

export interface GroupWriter {
  /** Resolves once the batch is committed: true if stored, false if it was a duplicate. */
  submit(batch: ValidBatch): Promise<boolean>;
  /** Batches waiting or being written. */
  readonly pending: number;
  /** Waits until everything submitted is written (or failed). */
  drain(): Promise<void>;
  /** Transactions so far, batches in them, and the newest 1000 transactions' durations, ms. */
  stats(): { transactions: number; batches: number; writeMs: number[] };
}

/** Transaction durations kept for stats(). */
const KEPT = 1000;

interface Waiting {
  batch: ValidBatch;
  resolve(stored: boolean): void;
  reject(e: unknown): void;
}

/**
 * Group commit: batches that arrive while a transaction is being written wait and go together in
 * the next one (up to maxPerTransaction), and each sender is answered only after the commit that
 * holds its batch — so an answered batch survives a crash or a restart. A commit's fsync costs
 * the same for 1 batch or 500: at a thousand sessions that is what keeps ingest on one core.
 * If a group fails, each of its batches is retried alone, so one batch the database refuses does
 * not take the others down with it. At maxPending waiting batches, submit refuses (503, busy).
 *
 * A transaction starts at most every `minIntervalMs` (from one start to the next): the batches
 * that arrive meanwhile join it. Without that pause, a writer that is never idle starts a new
 * transaction for every one or two batches, and a transaction's cost is mostly fixed (DuckDB: ~8 ms
 * of CPU, ~0.3 ms more per batch), so a thousand sessions kept the collector's core busy. A batch
 * that finds the writer idle for that long is written at once.
 */
export function createGroupWriter(store: Store, o: { maxPending: number; maxPerTransaction: number; minIntervalMs?: number }): GroupWriter {
  const minIntervalMs = o.minIntervalMs ?? 0;
  let lastStart = -Infinity;
  let queue: Waiting[] = [];
  let writing = 0;
  let running: Promise<void> | null = null;
  let transactions = 0;
  let written = 0;
  const writeMs: number[] = [];

  async function loop(): Promise<void> {
    while (queue.length > 0) {
      // A timer fires by the event loop's cached millisecond clock, so it can end a little early
      // by performance.now() (58.6 of 60 ms seen): wait again until the interval has passed.
      for (let wait = lastStart + minIntervalMs - performance.now(); wait > 0; wait = lastStart + minIntervalMs - performance.now())
        await new Promise((r) => setTimeout(r, Math.ceil(wait)));
      lastStart = performance.now();
      const group = queue.slice(0, o.maxPerTransaction);
      queue = queue.slice(group.length);
      writing = group.length;
      try {
        const t0 = performance.now();
        const fresh = await store.writeBatches(group.map((w) => w.batch));
        writeMs.push(performance.now() - t0);
        if (writeMs.length > KEPT) writeMs.shift();
        transactions += 1;
        written += group.length;
        group.forEach((w, i) => w.resolve(fresh[i]!));
      } catch (e) {
        if (group.length === 1) group[0]!.reject(e);
        else {
          for (const w of group) {
            try {
              w.resolve((await store.writeBatches([w.batch]))[0]!);
            } catch (e1) {
              w.reject(e1);
            }
          }
        }
      }
      writing = 0;
    }
  }

  const kick = () => {
    if (running !== null) return;
    running = loop().finally(() => {
      running = null;
      // A batch submitted between the loop's last look at the queue and here starts the next one.
      if (queue.length > 0) kick();
    });
  };

  return {
    submit(batch) {
      if (queue.length + writing >= o.maxPending) {
        return Promise.reject(
          new CollectorError('COLLECTOR_ERR_BUSY', `${queue.length + writing} batches are waiting for the store; try again shortly`),
        );
      }
      const p = new Promise<boolean>((resolve, reject) => queue.push({ batch, resolve, reject }));
      kick();
      return p;
    },
    get pending() {
      return queue.length + writing;
    },
    stats: () => ({ transactions, batches: written, writeMs: [...writeMs] }),
    async drain() {
      while (running !== null) await running;
    },
  };
}
