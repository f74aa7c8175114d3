import type { SegmentRef } from '@ethle/core';
import type { EdgeEvents } from '../events/EdgeEvents.js';
import type { OriginFetchReport } from '../origin/OriginFetchReport.js';
import type { TimelineSegment, TimelineSnapshot } from '@ethle/core';

/** What the timeline needs to know about a cache entry when it answers (prefetch in flight, production times). */
export interface EntryInfo {
  createdAt: number;
  state: 'pending' | 'streaming' | 'complete' | 'failed';
  headers: Record<string, string>;
}

export interface SegmentTimelineOptions {
  events: EdgeEvents;
  /** The stream and segment an origin path (without query) names, while it is in a window. */
  lookup: (origin: string, path: string) => { stream: string; seg: SegmentRef } | undefined;
  /** The cache entry of an origin path (`{origin}{path}` with the manifest's query), if any. */
  entryOf: (origin: string, path: string) => EntryInfo | undefined;
  now: () => number;
  /** Segments kept per stream (the oldest go first). */
  maxSegments: number;
  /** Streams kept (the registry bounds the active ones; this bounds what is remembered). */
  maxStreams: number;
}

interface Rec extends TimelineSegment {
  origin: string;
  /** The path as listed (with the manifest's query): the cache key's path. */
  fetchPath: string;
}

interface StreamRecs {
  /** By bare path, in the order the edge saw them listed. */
  segs: Map<string, Rec>;
  segmentSeconds: number;
}

/**
 * A bounded ring of recent segment events per stream, built from the edge's typed events: when
 * the edge saw a segment listed by the origin, when its origin fetch started and ended (prefetch
 * or a receiver's miss), the origin's production times (X-Ethle-Production-* headers of the
 * fetched segment) and when receivers first asked for it. The demo draws it; an operator can read
 * it. Only listeners and a few Map writes per segment: the hot path pays nothing more.
 */
export class SegmentTimeline {
  readonly #o: SegmentTimelineOptions;
  readonly #streams = new Map<string, StreamRecs>();
  /** `{origin}{bare path}` → its record (a segment's stream is known once it is listed). */
  readonly #byPath = new Map<string, { stream: string; rec: Rec }>();
  readonly #off: Array<() => void>;

  constructor(o: SegmentTimelineOptions) {
    this.#o = o;
    const { events } = o;
    this.#off = [
      events.on('segment-listed', (e) => this.#listed(e.stream, e.origin, e.paths, e.at)),
      events.on('origin-fetch', (r) => this.#fetched(r)),
      events.on('segment-request', (e) => this.#requested(e.origin, e.path, e.result)),
      events.on('stream-idle', (e) => this.#forget(e.stream)),
    ];
  }

  /** Stream keys with recorded segments, oldest first. */
  streams(): string[] {
    return [...this.#streams.keys()];
  }

  has(stream: string): boolean {
    return this.#streams.has(stream);
  }

  /**
   * The stream's recent segments with what follows from x now: when each became (or will become)
   * visible in the held manifest — when the segment x later in its track was listed — which are
   * held now, and the lead: complete segments past the newest one a receiver asked for.
   */
  snapshot(stream: string, hold: number): TimelineSnapshot | undefined {
    const s = this.#streams.get(stream);
    if (s === undefined) return undefined;
    const now = this.#o.now();
    const byTrack = new Map<string, Rec[]>();
    for (const r of s.segs.values()) {
      let list = byTrack.get(r.track);
      if (list === undefined) byTrack.set(r.track, (list = []));
      list.push(r);
    }
    const segments: TimelineSegment[] = [];
    const lead: Record<string, number> = {};
    const held: Record<string, number> = {};
    for (const [track, list] of byTrack) {
      list.sort((a, b) => a.id - b.id);
      const listedAt = new Map(list.map((r) => [r.id, r.listedAt]));
      let newestAsked: number | undefined;
      for (const r of list) if (r.firstRequestAt !== undefined) newestAsked = r.id;
      let l = 0;
      let h = 0;
      for (const r of list) {
        const seg: TimelineSegment = { ...publicPart(r) };
        const visibleAt = hold === 0 ? r.listedAt : listedAt.get(r.id + hold);
        if (visibleAt !== undefined) seg.visibleAt = visibleAt;
        else if (r.id > list.at(-1)!.id - hold) {
          // One of the newest x: listed by the origin, not yet in the held manifest.
          seg.held = true;
          h += 1;
        }
        if (seg.fetchEnd === undefined) {
          // In flight: the cache entry says since when (its fetch started when it was created).
          const e = this.#o.entryOf(r.origin, r.fetchPath);
          if (e !== undefined && e.state !== 'failed' && e.state !== 'complete') seg.fetchStart = e.createdAt;
        }
        if (newestAsked !== undefined && r.id > newestAsked && r.id === newestAsked + l + 1 && seg.fetchOutcome === 'ok') l += 1;
        segments.push(seg);
      }
      lead[track] = l;
      held[track] = h;
    }
    return { v: 1, stream, now, hold, segmentSeconds: s.segmentSeconds, held, lead, segments };
  }

  close(): void {
    for (const off of this.#off.splice(0)) off();
    this.#streams.clear();
    this.#byPath.clear();
  }

  #listed(stream: string, origin: string, paths: string[], at: number): void {
    let s = this.#streams.get(stream);
    if (s === undefined) {
      s = { segs: new Map(), segmentSeconds: 0 };
      this.#streams.set(stream, s);
      if (this.#streams.size > this.#o.maxStreams) this.#forget(this.#streams.keys().next().value!);
    }
    for (const p of paths) {
      if (s.segs.has(p)) continue;
      const found = this.#o.lookup(origin, p);
      if (found === undefined) continue;
      const { seg } = found;
      const rec: Rec = {
        origin,
        fetchPath: seg.path,
        track: seg.track,
        id: seg.id,
        path: p,
        durationS: seg.durationSeconds,
        listedAt: at,
        requests: 0,
      };
      s.segs.set(p, rec);
      s.segmentSeconds = seg.durationSeconds;
      this.#byPath.set(`${origin}${p}`, { stream, rec });
      if (s.segs.size > this.#o.maxSegments) {
        const [oldest] = s.segs.keys();
        s.segs.delete(oldest!);
        this.#byPath.delete(`${origin}${oldest}`);
      }
    }
  }

  #fetched(r: OriginFetchReport): void {
    if (r.kind === 'manifest') return;
    const hit = this.#byPath.get(`${r.origin}${bare(r.path)}`);
    if (hit === undefined) return;
    const rec = hit.rec;
    const end = this.#o.now();
    rec.fetchStart = end - r.totalMs;
    rec.fetchEnd = end;
    rec.fetchKind = r.kind;
    rec.fetchOutcome = r.outcome;
    const h = this.#o.entryOf(r.origin, rec.fetchPath)?.headers;
    const ps = Date.parse(h?.['x-ethle-production-start'] ?? '');
    const pe = Date.parse(h?.['x-ethle-production-end'] ?? '');
    if (Number.isFinite(ps)) rec.productionStart = ps;
    if (Number.isFinite(pe)) rec.productionEnd = pe;
  }

  #requested(origin: string, path: string, result: 'hit' | 'coalesced' | 'miss'): void {
    const hit = this.#byPath.get(`${origin}${bare(path)}`);
    if (hit === undefined) return;
    const rec = hit.rec;
    rec.requests += 1;
    if (rec.firstRequestAt === undefined) {
      rec.firstRequestAt = this.#o.now();
      rec.firstResult = result;
    }
  }

  #forget(stream: string): void {
    const s = this.#streams.get(stream);
    if (s === undefined) return;
    for (const r of s.segs.values()) this.#byPath.delete(`${r.origin}${r.path}`);
    this.#streams.delete(stream);
  }
}

function publicPart(r: Rec): TimelineSegment {
  const { origin: _o, fetchPath: _f, ...rest } = r;
  return rest;
}

function bare(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}
