import type { Rendition } from '../session/ManifestView.js';

/**
 * Which Representations of a DASH ladder an edge prefetches, and the segment size the model reads
 * for them: per adaptation set, what its receivers play.
 *
 * - A Representation is played while a receiver has asked for a segment of it within
 *   `playedWithinMs` (the stream's idle time: an HLS variant's stream closes after as long without
 *   a request, so a DASH rendition is dropped on the same clock). Played ones are planned from
 *   their receivers' head.
 * - A set no receiver has asked anything of yet is planned as a start on one Representation only,
 *   the one players start on (Rendition.start); its other Representations are not fetched. A set
 *   whose receivers all stopped asking is not planned at all (they paused or left; a start would
 *   fetch its newest segments for nobody, and the stream closes once they are gone).
 * - s_seg, per set: the largest segment of its played Representations (measured mean, else
 *   @bandwidth × l_seg), else the start choice's; the sets add up (video and audio within one l_seg).
 *
 * State is bounded by the MPD: the ladder is replaced per version, and the time of the last request
 * is kept only for Representations the current version lists (`set(undefined)` drops it all).
 */
export class RenditionLadder {
  readonly #playedWithinMs: number;
  #byTrack = new Map<string, Rendition>();
  readonly #lastRequestMs = new Map<string, number>();

  constructor(playedWithinMs: number) {
    this.#playedWithinMs = playedWithinMs;
  }

  /** The current version's ladder; undefined: the manifest is none (every track planned as listed). */
  set(ladder: readonly Rendition[] | undefined): void {
    this.#byTrack = new Map((ladder ?? []).map((r) => [r.track, r]));
    for (const t of this.#lastRequestMs.keys()) if (!this.#byTrack.has(t)) this.#lastRequestMs.delete(t);
  }

  get active(): boolean {
    return this.#byTrack.size > 0;
  }

  /** A track of the ladder (else not this class's to judge: planned as listed). */
  has(track: string): boolean {
    return this.#byTrack.has(track);
  }

  /** A ladder track's advertised bits/s (undefined: not on the ladder, or no @bandwidth). */
  bandwidthBps(track: string): number | undefined {
    const b = this.#byTrack.get(track)?.bandwidthBps;
    return b !== undefined && b > 0 ? b : undefined;
  }

  /** A receiver asked for a segment of this track at nowMs: true when the track was not played until now. */
  noteRequest(track: string, nowMs: number): boolean {
    if (!this.#byTrack.has(track)) return false;
    const was = this.played(track, nowMs);
    this.#lastRequestMs.set(track, Math.max(nowMs, this.#lastRequestMs.get(track) ?? nowMs));
    return !was;
  }

  /** Whether a receiver asked for a segment of this track within playedWithinMs of nowMs. */
  played(track: string, nowMs: number): boolean {
    const t = this.#lastRequestMs.get(track);
    return t !== undefined && nowMs - t <= this.#playedWithinMs;
  }

  /**
   * The ladder's tracks to plan at nowMs, of those `listed` says the window has: per set its played
   * ones; for a set never asked for, its start choice (of the newest Period listed).
   */
  planned(listed: (track: string) => boolean, nowMs: number): Set<string> {
    const out = new Set<string>();
    const sets = new Map<string, { played: boolean; asked: boolean; start: string | undefined }>();
    for (const r of this.#byTrack.values()) {
      if (!listed(r.track)) continue;
      let s = sets.get(r.set);
      if (s === undefined) sets.set(r.set, (s = { played: false, asked: false, start: undefined }));
      if (this.#lastRequestMs.has(r.track)) s.asked = true;
      if (this.played(r.track, nowMs)) {
        s.played = true;
        out.add(r.track);
      }
      if (r.start) s.start = r.track;
    }
    for (const s of sets.values()) if (!s.asked && s.start !== undefined) out.add(s.start);
    return out;
  }

  /**
   * s_seg on the ladder at nowMs (see the class): `measured` is a track's mean segment size, if any.
   * Undefined when no set has a size (nothing measured, no @bandwidth) or there is no ladder.
   */
  segmentBytes(measured: (track: string) => number | undefined, segmentSeconds: number, nowMs: number): number | undefined {
    const sets = new Map<string, { played: number | undefined; start: number | undefined }>();
    for (const r of this.#byTrack.values()) {
      let s = sets.get(r.set);
      if (s === undefined) sets.set(r.set, (s = { played: undefined, start: undefined }));
      const bytes = measured(r.track) ?? (r.bandwidthBps > 0 && segmentSeconds > 0 ? (r.bandwidthBps * segmentSeconds) / 8 : undefined);
      if (bytes === undefined) continue;
      if (this.played(r.track, nowMs)) s.played = Math.max(s.played ?? 0, bytes);
      // MPD order: the newest Period's start choice is the last.
      if (r.start) s.start = bytes;
    }
    let total: number | undefined;
    for (const s of sets.values()) {
      const b = s.played ?? s.start;
      if (b !== undefined) total = (total ?? 0) + b;
    }
    return total;
  }
}
