import type { TimelineSegment, TimelineSnapshot } from '@ethle/core';

/**
 * The worker's segment timeline, in the Node edge's `GET /_ethle/timeline` format, so the demo
 * draws both alike: when the worker saw each segment listed, when its fetch (prefetch or the
 * page's miss) started and ended, the origin's production times, and the page's first request.
 * One stream (the latest the page played), the newest `max` segments.
 */
export class SwTimeline {
  #stream = '';
  #segmentSeconds = 0;
  /** By segment URL (without CMCD), in the order listed. */
  #segs = new Map<string, TimelineSegment>();

  constructor(private readonly max = 96) {}

  listed(stream: string, segs: { url: string; path: string; track: string; id: number; durationS: number }[], at: number): void {
    if (stream !== this.#stream) {
      this.#stream = stream;
      this.#segs.clear();
    }
    for (const s of segs) {
      if (this.#segs.has(s.url)) continue;
      this.#segs.set(s.url, { track: s.track, id: s.id, path: s.path, durationS: s.durationS, listedAt: at, requests: 0 });
      this.#segmentSeconds = s.durationS;
      if (this.#segs.size > this.max) this.#segs.delete(this.#segs.keys().next().value!);
    }
  }

  fetchStarted(url: string, kind: 'prefetch' | 'segment', at: number): void {
    const r = this.#segs.get(url);
    if (r === undefined) return;
    r.fetchStart = at;
    r.fetchKind = kind;
  }

  fetchEnded(url: string, outcome: string, at: number, production: { start: string | null; end: string | null }): void {
    const r = this.#segs.get(url);
    if (r === undefined) return;
    r.fetchEnd = at;
    r.fetchOutcome = outcome;
    const ps = Date.parse(production.start ?? '');
    const pe = Date.parse(production.end ?? '');
    if (Number.isFinite(ps)) r.productionStart = ps;
    if (Number.isFinite(pe)) r.productionEnd = pe;
  }

  requested(url: string, result: 'hit' | 'coalesced' | 'miss', at: number): void {
    const r = this.#segs.get(url);
    if (r === undefined) return;
    r.requests += 1;
    if (r.firstRequestAt === undefined) {
      r.firstRequestAt = at;
      r.firstResult = result;
    }
  }

  /** As the Node edge derives it: visible once the segment x later was listed; the newest x held; the lead. */
  snapshot(hold: number, now: number): TimelineSnapshot {
    const byTrack = new Map<string, TimelineSegment[]>();
    for (const r of this.#segs.values()) {
      let list = byTrack.get(r.track);
      if (list === undefined) byTrack.set(r.track, (list = []));
      list.push(r);
    }
    const segments: TimelineSegment[] = [];
    const held: Record<string, number> = {};
    const lead: Record<string, number> = {};
    for (const [track, list] of byTrack) {
      list.sort((a, b) => a.id - b.id);
      const listedAt = new Map(list.map((r) => [r.id, r.listedAt]));
      let newestAsked: number | undefined;
      for (const r of list) if (r.firstRequestAt !== undefined) newestAsked = r.id;
      let h = 0;
      let l = 0;
      for (const r of list) {
        const seg: TimelineSegment = { ...r };
        const visibleAt = hold === 0 ? r.listedAt : listedAt.get(r.id + hold);
        if (visibleAt !== undefined) seg.visibleAt = visibleAt;
        else if (r.id > list.at(-1)!.id - hold) {
          seg.held = true;
          h += 1;
        }
        if (newestAsked !== undefined && r.id > newestAsked && r.id === newestAsked + l + 1 && r.fetchOutcome === 'ok') l += 1;
        segments.push(seg);
      }
      held[track] = h;
      lead[track] = l;
    }
    return { v: 1, stream: this.#stream, now, hold, segmentSeconds: this.#segmentSeconds, held, lead, segments };
  }
}
