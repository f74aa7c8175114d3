import type { Logger } from 'pino';

/** Keys (kinds of warning) remembered at most; beyond, the oldest is forgotten. */
const MAX_KEYS = 256;

/**
 * Warnings that a request can cause, summed: the first of a kind (its `key`) is logged at once;
 * more of the same kind within `everyMs` are only counted, and the next one after that is logged
 * with `suppressed`, the number not logged since the last line. A flood of junk requests (20,000
 * made-up manifest paths wrote 40,000 lines, 46 MB) writes one line per kind per `everyMs`; the
 * metrics still count every one. No timer: a window closes when the next warning comes.
 */
export class SummedWarnings {
  readonly #log: Logger;
  readonly #everyMs: number;
  readonly #now: () => number;
  readonly #kinds = new Map<string, { since: number; suppressed: number }>();

  constructor(log: Logger, everyMs: number, now: () => number) {
    this.#log = log;
    this.#everyMs = everyMs;
    this.#now = now;
  }

  warn(key: string, fields: Record<string, unknown>, msg: string): void {
    const t = this.#now();
    const k = this.#kinds.get(key);
    if (k !== undefined && t - k.since < this.#everyMs) {
      k.suppressed += 1;
      return;
    }
    this.#log.warn(
      k === undefined || k.suppressed === 0 ? fields : { ...fields, suppressed: k.suppressed, suppressedOverMs: t - k.since },
      msg,
    );
    this.#kinds.delete(key);
    this.#kinds.set(key, { since: t, suppressed: 0 });
    if (this.#kinds.size > MAX_KEYS) this.#kinds.delete(this.#kinds.keys().next().value!);
  }
}
