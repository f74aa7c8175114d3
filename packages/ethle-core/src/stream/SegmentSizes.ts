/** Recent segment sizes kept per track: enough to smooth one odd segment, few enough to follow a bitrate change. */
export const SIZE_SAMPLES = 8;

/**
 * The recent sizes of one stream's segments per track (bytes), and their means, kept up to date
 * as sizes arrive: a reader gets a number, never a reduce over the samples.
 */
export class SegmentSizes {
  readonly #tracks = new Map<string, { list: number[]; sum: number }>();
  #total: number | undefined;

  /** One segment's size (its Content-Length, as both edges take it when the headers arrive). */
  note(track: string, bytes: number): void {
    if (!(bytes >= 0) || !Number.isFinite(bytes)) return;
    let t = this.#tracks.get(track);
    if (t === undefined) this.#tracks.set(track, (t = { list: [], sum: 0 }));
    t.list.push(bytes);
    t.sum += bytes;
    if (t.list.length > SIZE_SAMPLES) t.sum -= t.list.shift()!;
    // s_seg is what one segment period costs the backhaul: every track's segment (DASH video +
    // audio) is fetched within l_seg, so the per-track means add up.
    let total = 0;
    for (const x of this.#tracks.values()) total += x.sum / x.list.length;
    this.#total = total;
  }

  /** The mean of a track's recent sizes, or undefined before its first. */
  track(track: string): number | undefined {
    const t = this.#tracks.get(track);
    return t === undefined ? undefined : t.sum / t.list.length;
  }

  /** s_seg measured: the per-track means added up, or undefined before any size. */
  get total(): number | undefined {
    return this.#total;
  }

  get empty(): boolean {
    return this.#total === undefined;
  }
}
