/** Origin fetch priority: a player waiting on the bytes beats bulk prefetch (paper 003's idea). */
export type FetchPriority = 'player' | 'prefetch';

export interface FetchSchedulerOptions {
  /** Fetches running at once to this origin, all streams together. */
  limit: number;
  /** Fetches running at once for one group (a stream): one slow stream cannot take every slot. */
  groupLimit: number;
  /** Jobs waiting at most; enqueue() refuses beyond (the caller answers 503). */
  maxQueued: number;
  /**
   * Slots above `limit` that only fetches a player waits for may take: prefetches of slow
   * streams can fill `limit`, never the way to a waiting player. Default `groupLimit`.
   */
  playerHeadroom?: number;
  /** A job that threw or rejected (a bug: jobs report their own failures); its slot is given back. */
  onError?: (error: unknown) => void;
}

interface Job {
  key: string;
  group: string;
  run: () => Promise<void>;
}

/**
 * A bounded queue in front of one origin: at most `limit` fetches at once, at most `groupLimit`
 * of them for one stream, with two priority levels. Players' fetches go first (a player waits on
 * them); prefetches are taken round-robin across streams, so a stream whose origin crawls at
 * 1 KB/s holds at most its own slots and never starves the others. A prefetch still queued when
 * a player asks for the same object is promoted.
 */
export class FetchScheduler {
  readonly #o: FetchSchedulerOptions;
  #running = 0;
  readonly #runningBy = new Map<string, number>();
  readonly #player: Job[] = [];
  /** Prefetch queues per group; Map order is the round-robin order. */
  readonly #prefetch = new Map<string, Job[]>();
  #queued = 0;
  #closed = false;

  constructor(o: FetchSchedulerOptions) {
    this.#o = o;
  }

  get running(): number {
    return this.#running;
  }

  get queued(): number {
    return this.#queued;
  }

  /** Queue a fetch. False when the queue is full or the scheduler closed (run() is not called). */
  enqueue(key: string, group: string, priority: FetchPriority, run: () => Promise<void>): boolean {
    if (this.#closed || this.#queued >= this.#o.maxQueued) return false;
    const job = { key, group, run };
    if (priority === 'player') this.#player.push(job);
    else {
      let q = this.#prefetch.get(group);
      if (q === undefined) this.#prefetch.set(group, (q = []));
      q.push(job);
    }
    this.#queued += 1;
    this.#drain();
    return true;
  }

  /** Move a queued prefetch of `key` to the player queue. Returns whether one was found. */
  promote(key: string): boolean {
    for (const [group, q] of this.#prefetch) {
      const i = q.findIndex((j) => j.key === key);
      if (i < 0) continue;
      const [job] = q.splice(i, 1);
      if (q.length === 0) this.#prefetch.delete(group);
      this.#player.push(job!);
      this.#drain();
      return true;
    }
    return false;
  }

  close(): void {
    this.#closed = true;
    this.#player.length = 0;
    this.#prefetch.clear();
    this.#queued = 0;
  }

  #next(): Job | undefined {
    // A waiting player is served even if its stream has its share, and within a headroom above
    // the limit that prefetches cannot take.
    if (this.#player.length > 0 && this.#running < this.#o.limit + (this.#o.playerHeadroom ?? this.#o.groupLimit))
      return this.#player.shift();
    if (this.#running >= this.#o.limit) return undefined;
    for (const [group, q] of this.#prefetch) {
      if ((this.#runningBy.get(group) ?? 0) >= this.#o.groupLimit) continue;
      const job = q.shift()!;
      // Round-robin: the group that got a slot goes to the back.
      this.#prefetch.delete(group);
      if (q.length > 0) this.#prefetch.set(group, q);
      return job;
    }
    return undefined;
  }

  #drain(): void {
    while (!this.#closed) {
      const job = this.#next();
      if (job === undefined) return;
      this.#queued -= 1;
      this.#running += 1;
      this.#runningBy.set(job.group, (this.#runningBy.get(job.group) ?? 0) + 1);
      // run() reports its own failures (into the cache entry). One that throws anyway is a bug:
      // reported, and its slot given back. A throw must not leave here: #drain runs from another
      // job's completion, where nobody would catch it and the process would end.
      const release = (): void => {
        this.#running -= 1;
        const n = (this.#runningBy.get(job.group) ?? 1) - 1;
        if (n <= 0) this.#runningBy.delete(job.group);
        else this.#runningBy.set(job.group, n);
        this.#drain();
      };
      let run: Promise<void>;
      try {
        run = job.run();
      } catch (e) {
        run = Promise.reject(e);
      }
      run.then(release, (e: unknown) => {
        this.#o.onError?.(e);
        release();
      });
    }
  }
}
