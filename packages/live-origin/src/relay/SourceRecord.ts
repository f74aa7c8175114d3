import { loadManifest, type SegmentRef } from '@ethle/core';

/** One object the relay passed on: its size, and its length and track when a manifest listed it. */
export interface RelayedObject {
  /** Path (without query) as the relay served it. */
  path: string;
  /** The whole object's bytes (a 200's body, or a 206's Content-Range total). */
  bytes: number;
  /** Media seconds, from the manifest that listed it (HLS EXTINF, DASH duration or timeline). */
  durationSeconds?: number;
  /** HLS: the media playlist's path; DASH: the representation. */
  track?: string;
  /** How many whole-object fetches of it the relay served (ranges from byte 0 count, other ranges not). */
  fetches: number;
}

/** What a relaying origin saw of its source (`/stats` → `source`). */
export interface SourceRecordJson {
  upstream: string;
  /** Manifest responses parsed, and those the core's parsers refused (with the last reason). */
  manifests: number;
  manifestErrors: number;
  lastManifestError?: string;
  /** Objects some manifest listed as media segments, in the order first relayed. */
  segments: RelayedObject[];
  /** Other objects (init segments, keys, multivariant-level files), in the order first relayed. */
  other: RelayedObject[];
  /** Objects not recorded because the record was full (maxObjects). */
  dropped: number;
}

/**
 * The sizes and durations of what a relaying origin passes on, for a run's record of the user's
 * source. Durations come from the manifests the relay served, parsed by the core's HLS and DASH
 * parsers (the edge's own view of them). Bounded: at most `maxObjects` objects and as many listed
 * segment paths; beyond that the oldest listing is forgotten and new objects are counted as dropped.
 */
export class SourceRecord {
  readonly #upstream: string;
  readonly #max: number;
  /** Bare path → what the newest manifest listing it said (insertion order: oldest first). */
  readonly #listed = new Map<string, Pick<SegmentRef, 'durationSeconds' | 'track'>>();
  readonly #objects = new Map<string, RelayedObject>();
  /** Per manifest path, what its previous version carried (HLS history). Bounded like the rest. */
  readonly #carry = new Map<string, unknown>();
  #manifests = 0;
  #manifestErrors = 0;
  #lastManifestError: string | undefined;
  #dropped = 0;

  constructor(upstream: string, maxObjects = 20_000) {
    this.#upstream = upstream;
    this.#max = maxObjects;
  }

  /** A manifest the relay served: note each listed segment's duration and track. */
  manifest(pathAndQuery: string, text: string, nowMs: number): void {
    const bare = barePath(pathAndQuery);
    try {
      const view = loadManifest(text, {
        manifestUrl: new URL(pathAndQuery, this.#upstream).href,
        originBase: this.#upstream,
        routing: 'none',
        edgePathPrefix: '',
        nowMs,
        previousCarry: this.#carry.get(bare),
      });
      this.#manifests += 1;
      this.#remember(this.#carry, bare, view.carry);
      for (const s of view.segments(nowMs)) {
        const p = barePath(s.path);
        // An HLS media playlist is one track, named by its path (the core calls every one `media`).
        const listed = { durationSeconds: s.durationSeconds, track: view.kind === 'dash' ? s.track : bare };
        const o = this.#objects.get(p);
        if (o !== undefined) Object.assign(o, listed);
        this.#remember(this.#listed, p, listed);
      }
    } catch (e) {
      this.#manifestErrors += 1;
      this.#lastManifestError = `${bare}: ${(e as Error).message}`.slice(0, 300);
    }
  }

  /** A non-manifest object the relay passed on whole (or a range of it, with the whole's size). */
  object(pathAndQuery: string, bytes: number, wholeFetch: boolean): void {
    const p = barePath(pathAndQuery);
    let o = this.#objects.get(p);
    if (o === undefined) {
      if (this.#objects.size >= this.#max) {
        this.#dropped += 1;
        return;
      }
      const listed = this.#listed.get(p);
      o = { path: p, bytes, fetches: 0, ...(listed ? { durationSeconds: listed.durationSeconds, track: listed.track } : {}) };
      this.#objects.set(p, o);
    }
    o.bytes = Math.max(o.bytes, bytes);
    if (wholeFetch) o.fetches += 1;
  }

  toJSON(): SourceRecordJson {
    const all = [...this.#objects.values()].map((o) => ({ ...o }));
    return {
      upstream: this.#upstream,
      manifests: this.#manifests,
      manifestErrors: this.#manifestErrors,
      ...(this.#lastManifestError ? { lastManifestError: this.#lastManifestError } : {}),
      segments: all.filter((o) => o.durationSeconds !== undefined),
      other: all.filter((o) => o.durationSeconds === undefined),
      dropped: this.#dropped,
    };
  }

  /** Insert or refresh `key` as the newest entry, forgetting the oldest beyond the bound. */
  #remember<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > this.#max) map.delete(map.keys().next().value!);
  }
}

const barePath = (p: string): string => {
  const q = p.indexOf('?');
  return q < 0 ? p : p.slice(0, q);
};
