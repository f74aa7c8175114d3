/** Origin fetch priority: a player waiting on the bytes beats bulk prefetch (paper 003's idea). */
export type FetchPriority = 'player' | 'prefetch';

interface Job {
  key: string;
  run: () => Promise<void>;
}

/**
 * A bounded-concurrency queue in front of one origin with two priority levels. A prefetch still
 * queued when a player asks for the same object is promoted, so the waiting player is served
 * next rather than after the bulk queue.
 */
export class FetchScheduler {
  readonly #limit: number;
  #running = 0;
  readonly #player: Job[] = [];
  readonly #prefetch: Job[] = [];
  #closed = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get running(): number {
    return this.#running;
  }

  get queued(): number {
    return this.#player.length + this.#prefetch.length;
  }

  enqueue(key: string, priority: FetchPriority, run: () => Promise<void>): void {
    if (this.#closed) return;
    (priority === 'player' ? this.#player : this.#prefetch).push({ key, run });
    this.#drain();
  }

  /** Move a queued prefetch of `key` to the player queue. Returns whether one was found. */
  promote(key: string): boolean {
    const i = this.#prefetch.findIndex((j) => j.key === key);
    if (i < 0) return false;
    const [job] = this.#prefetch.splice(i, 1);
    this.#player.push(job!);
    this.#drain();
    return true;
  }

  close(): void {
    this.#closed = true;
    this.#player.length = 0;
    this.#prefetch.length = 0;
  }

  #drain(): void {
    while (!this.#closed && this.#running < this.#limit) {
      const job = this.#player.shift() ?? this.#prefetch.shift();
      if (job === undefined) return;
      this.#running += 1;
      // run() reports its own failures (into the cache entry); a rejection here is swallowed
      // only so the slot is always given back.
      const release = (): void => {
        this.#running -= 1;
        this.#drain();
      };
      job.run().then(release, release);
    }
  }
}
