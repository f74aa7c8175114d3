/** One receiver's delivery rate as the edge measured it on its own responses. */
export interface RadioSample {
  /** Mean rate over the recent segment-scale responses, Mbit/s. */
  mbps: number;
  /** How many responses it rests on, and how many bytes they carried. */
  samples: number;
  bytes: number;
  /** The last two responses' rates, newest last (a redirect wants sustained evidence). */
  recentMbps: number[];
}

/** Below this a response measures the RTT and the socket buffer, not the radio. */
export const MIN_RADIO_BYTES = 100_000;

/**
 * The radio leg as the edge sees it: the edge is the sender, so the time from a response's first
 * byte handed to the socket to its last byte handed over ('finish') is the receiver's delivery
 * rate for everything beyond the socket's send buffer. Per receiver (CMCD sid, else its address),
 * over the last few segment-scale responses; bounded (least recently measured forgotten first).
 * Responses smaller than a send buffer finish at once and say nothing: they are not kept.
 */
export class RadioMeter {
  readonly #max: number;
  readonly #keep: number;
  readonly #byReceiver = new Map<string, Array<{ bytes: number; ms: number }>>();

  constructor(maxReceivers = 100_000, keep = 4) {
    this.#max = maxReceivers;
    this.#keep = keep;
  }

  get size(): number {
    return this.#byReceiver.size;
  }

  record(receiver: string, bytes: number, ms: number): void {
    if (bytes < MIN_RADIO_BYTES || !(ms > 0)) return;
    let list = this.#byReceiver.get(receiver);
    if (list !== undefined) this.#byReceiver.delete(receiver);
    else list = [];
    list.push({ bytes, ms });
    if (list.length > this.#keep) list.shift();
    this.#byReceiver.set(receiver, list);
    if (this.#byReceiver.size > this.#max) this.#byReceiver.delete(this.#byReceiver.keys().next().value!);
  }

  estimate(receiver: string): RadioSample | undefined {
    const list = this.#byReceiver.get(receiver);
    if (list === undefined || list.length === 0) return undefined;
    let bytes = 0;
    let ms = 0;
    for (const s of list) {
      bytes += s.bytes;
      ms += s.ms;
    }
    return {
      mbps: (bytes * 8) / (ms * 1000),
      samples: list.length,
      bytes,
      recentMbps: list.slice(-2).map((s) => (s.bytes * 8) / (s.ms * 1000)),
    };
  }
}
