import type { Timers } from '../../src/stream/Timers.js';

/** A hand-driven clock: time moves only when the test says, timers fire in order. */
export class FakeClock implements Timers {
  nowMs = 1_000_000;
  readonly #due: Array<{ at: number; fn: () => void; id: number }> = [];
  #ids = 0;
  /** Delays the poller asked for, in order. */
  readonly delays: number[] = [];

  setTimeout(fn: () => void, ms: number): unknown {
    this.delays.push(ms);
    const t = { at: this.nowMs + ms, fn, id: ++this.#ids };
    this.#due.push(t);
    return t.id;
  }

  clearTimeout(id: unknown): void {
    const i = this.#due.findIndex((t) => t.id === id);
    if (i >= 0) this.#due.splice(i, 1);
  }

  get pending(): number {
    return this.#due.length;
  }

  /** Moves time to the next timer and runs it (and what it awaits). */
  async next(): Promise<void> {
    this.#due.sort((a, b) => a.at - b.at);
    const t = this.#due.shift();
    if (t === undefined) throw new Error('no timer pending');
    this.nowMs = Math.max(this.nowMs, t.at);
    t.fn();
    await settle();
  }
}

/** Lets the promises a timer set off run (one macrotask). */
export const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
