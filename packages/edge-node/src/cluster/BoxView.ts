import type { EdgeLoadReport } from '../fleet/EdgeLoadReport.js';
import type { ToPrimary, ToWorker } from './clusterMessages.js';

/** What a worker answers for the whole box at /metrics and /_ethle/load. */
export interface BoxAnswer {
  metrics: string;
  contentType: string;
  load: EdgeLoadReport;
}

/**
 * A worker's view of its box (`serve --workers`): a scrape or a steering probe reaches one worker
 * (the kernel picks), which asks the primary for the box's aggregate over the IPC channel.
 * Concurrent askers share one question; an answer that does not come within `timeoutMs` rejects
 * (the caller answers 503: a scrape of one worker's numbers would be read as the box's).
 */
export class BoxView {
  readonly #send: (m: ToPrimary) => void;
  readonly #timeoutMs: number;
  #next = 1;
  #pending: { id: number; promise: Promise<BoxAnswer>; resolve: (a: BoxAnswer) => void } | undefined;

  constructor(send: (m: ToPrimary) => void, timeoutMs: number) {
    this.#send = send;
    this.#timeoutMs = timeoutMs;
  }

  ask(): Promise<BoxAnswer> {
    if (this.#pending !== undefined) return this.#pending.promise;
    const id = this.#next++;
    let resolve!: (a: BoxAnswer) => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<BoxAnswer>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const timer = setTimeout(() => {
      if (this.#pending?.id === id) this.#pending = undefined;
      reject(new Error(`the primary did not answer within ${this.#timeoutMs} ms`));
    }, this.#timeoutMs);
    this.#pending = {
      id,
      promise,
      resolve: (a) => {
        clearTimeout(timer);
        resolve(a);
      },
    };
    this.#send({ ethle: 'box?', id });
    return promise;
  }

  /** A message from the primary; true when it was the answer to a question of this view. */
  onMessage(m: ToWorker): boolean {
    if (m.ethle !== 'box' || this.#pending?.id !== m.id) return false;
    const p = this.#pending;
    this.#pending = undefined;
    p.resolve({ metrics: m.metrics, contentType: m.contentType, load: m.load });
    return true;
  }
}
