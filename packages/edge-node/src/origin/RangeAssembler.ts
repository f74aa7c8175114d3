/**
 * Puts the parts of one object fetched as several concurrent byte ranges back in order: part 0
 * streams straight through, a later part is buffered until every part before it has ended, then
 * flushed and streamed through itself. Readers of the cache entry see one ordered body as early
 * as the order allows.
 */
export class RangeAssembler {
  readonly #push: (chunk: Buffer) => void;
  readonly #buffered: Buffer[][];
  readonly #ended: boolean[];
  #cursor = 0;

  constructor(parts: number, push: (chunk: Buffer) => void) {
    this.#push = push;
    this.#buffered = Array.from({ length: parts }, () => []);
    this.#ended = Array.from({ length: parts }, () => false);
  }

  /** Every part has ended and all bytes went out in order. */
  get complete(): boolean {
    return this.#cursor >= this.#ended.length;
  }

  chunk(part: number, chunk: Buffer): void {
    if (part === this.#cursor) this.#push(chunk);
    else this.#buffered[part]!.push(chunk);
  }

  end(part: number): void {
    this.#ended[part] = true;
    while (this.#cursor < this.#ended.length && this.#ended[this.#cursor]) {
      this.#cursor += 1;
      if (this.#cursor < this.#ended.length) {
        for (const c of this.#buffered[this.#cursor]!.splice(0)) this.#push(c);
      }
    }
  }
}
