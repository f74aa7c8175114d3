import type { Logger } from 'pino';

/** Streams remembered at most (one warning each); beyond, the oldest is forgotten. */
const MAX_STREAMS = 1024;

/**
 * The operator is told once per stream that an LL-HLS stream is held in whole segments: its
 * low-latency features are removed (this path answers no blocking reloads), players fall back to
 * standard latency, and `--hold-parts` would keep it low. Bounded: one entry per stream warned of.
 */
export class LowLatencyLostNotice {
  readonly #log: Logger;
  readonly #told = new Set<string>();

  constructor(log: Logger) {
    this.#log = log;
  }

  note(stream: string, lostSeconds: number): void {
    if (this.#told.has(stream)) return;
    this.#told.add(stream);
    if (this.#told.size > MAX_STREAMS) this.#told.delete(this.#told.values().next().value!);
    this.#log.warn(
      { stream, lostSeconds },
      'LL-HLS stream held in whole segments: low-latency features removed, players fall back to standard latency (--hold-parts keeps low latency)',
    );
  }
}
