import type { Logger } from 'pino';
import type { SessionFacts } from './SessionFacts.js';

/** Facts in one report at most; the rest go in the next. */
const MAX_PER_REPORT = 5000;

/**
 * Sends the sessions' facts that changed to a QoE collector (`POST {collector}/v1/edge`, the
 * format in packages/collector/README.md) every `intervalMs`, labelled with this edge's name — the
 * same label the players give the edge in their beacons (`meta.edge`), so the collector joins
 * both by session. A failed report is logged and the same facts go again in the next one; one
 * report in flight at a time, each bounded in size and time.
 */
export class SessionReporter {
  #since = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #inFlight: Promise<void> | undefined;
  readonly #abort = new AbortController();

  constructor(
    private readonly facts: SessionFacts,
    private readonly o: { url: string; label: string; intervalMs: number; now: () => number; log: Logger },
  ) {
    this.#timer = setInterval(() => void this.flush(), o.intervalMs);
    this.#timer.unref();
  }

  /** Sends what changed since the last report that arrived. */
  flush(): Promise<void> {
    if (this.#inFlight !== undefined) return this.#inFlight;
    const changed = this.facts.changedSince(this.#since, MAX_PER_REPORT);
    if (changed.length === 0) return Promise.resolve();
    const sentAt = this.o.now();
    const body = JSON.stringify({ v: 1, edge: this.o.label, sentAt, sessions: changed });
    this.#inFlight = fetch(`${this.o.url}/v1/edge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.any([this.#abort.signal, AbortSignal.timeout(5000)]),
    })
      .then(async (r) => {
        if (!r.ok) throw new Error(`${r.status} ${(await r.text()).slice(0, 200)}`);
        await r.arrayBuffer().catch(() => undefined);
        // Next time from the newest change this report carried (a change in the same ms goes again: harmless).
        this.#since = changed.length === MAX_PER_REPORT ? changed.at(-1)!.lastAtMs : sentAt;
      })
      .catch((e: unknown) =>
        this.o.log.warn(
          { collector: this.o.url, error: String((e as Error)?.message ?? e) },
          'session report to the collector failed; resent next time',
        ),
      )
      .finally(() => {
        this.#inFlight = undefined;
      });
    return this.#inFlight;
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
    this.#abort.abort();
  }
}
