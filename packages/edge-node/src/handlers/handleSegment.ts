import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { serveEntry } from '../cache/serveEntry.js';
import type { EdgeContext, Origin } from '../EdgeContext.js';
import { retryAfterFor, sendError, statusFor } from '../http/sendError.js';
import { fetchLimits } from '../origin/fetchLimits.js';
import { MIN_RADIO_BYTES } from '../radio/RadioMeter.js';
import { readCmcd } from '../radio/readCmcd.js';
import { receiverKey } from '../radio/receiverKey.js';
import { ageSeconds, cmsdDynamic, cmsdStatic } from '../http/cmsdHeaders.js';

/** Unplanned objects (init segments, segments out of every window) share one scheduler group. */
const UNPLANNED = '(unplanned)';
/** What a `nor` hint may name: media objects, never a manifest or another path. */
const MEDIA_PATH_RE = /\.(m4s|mp4|m4v|m4a|cmfv|cmfa|ts|aac)$/i;

/**
 * Segment requests: from the cache (a hit), from a fetch in progress (coalesced, read while it is
 * written), or a new origin fetch (a miss: as parallel byte ranges when the stream knows the
 * segment's size). Every receiver of an object shares one origin flow.
 */
export function createSegmentHandler(ctx: EdgeContext) {
  const { cache, metrics, events, streams } = ctx;
  const unplannedLimits = fetchLimits(undefined, ctx.config.originHeadersTimeoutMs);

  /**
   * The receiver's delivery rate on a segment-scale response: from the first byte handed to the
   * socket to the last ('finish'). Costs one listener per such response; small ones are skipped.
   */
  const meterRadio = (res: ServerResponse, receiver: string, bytes: number): void => {
    if (bytes < MIN_RADIO_BYTES) return;
    const t0 = performance.now();
    res.once('finish', () => ctx.radio.record(receiver, bytes, performance.now() - t0));
  };
  const edgeId = ctx.config.fleet?.pathway ?? 'ethle-edge';
  /** Objects a player's `nor` named that the edge is fetching on that hint alone (bounded). */
  let hinted = 0;
  const MAX_HINTED = 16;

  /**
   * CMCD `nor` (CTA-5004: the object the player will ask for next, relative to this request) as a
   * prefetch hint, for what no stream's planner covers: a segment the edge knows in an active
   * window is the planner's (it prefetches x ahead already), so only other objects — an init
   * segment, a segment of a playlist the edge never saw, a VOD asset — are fetched on the hint,
   * at prefetch priority, at most MAX_HINTED at once. `nrr` needs nothing more: the edge fetches
   * whole objects and answers ranges from them.
   */
  const hint = (req: IncomingMessage, origin: Origin, path: string, query: URLSearchParams): void => {
    const hasCmcd = query.has('CMCD') || req.headers['cmcd-request'] !== undefined;
    if (!hasCmcd || hinted >= MAX_HINTED) return;
    const nor = readCmcd(query, req.headers).nor;
    if (nor === undefined) return;
    let next: string;
    try {
      // Relative to this request's URL on the origin's path space (the edge mirrors it).
      const u = new URL(nor, `http://edge${path}`);
      if (u.host !== 'edge') return; // an absolute URL elsewhere: not an object of this origin
      next = u.pathname;
    } catch {
      return;
    }
    if (!MEDIA_PATH_RE.test(next) || streams.segment(origin.cfg.name, next) !== undefined) return;
    const key = `${origin.cfg.name}${next}`;
    if (cache.get(key) !== undefined) return;
    const e = cache.create(key);
    hinted += 1;
    origin.client.fetchInto(next, e, { priority: 'prefetch', group: UNPLANNED, limits: unplannedLimits });
    // Counted until the fetch ends, either way (also if it failed at once: the queue was full).
    let done = false;
    const end = () => {
      if (done || (e.state !== 'complete' && e.state !== 'failed')) return;
      done = true;
      off();
      hinted -= 1;
    };
    const off = e.subscribe(end);
    end();
    events.emit('prefetch-hint', { origin: origin.cfg.name, path: next, from: path });
  };

  return function handleSegment(
    req: IncomingMessage,
    res: ServerResponse,
    origin: Origin,
    path: string,
    forwardQuery: string,
    query: URLSearchParams,
    head: boolean,
  ): void {
    const owned = streams.segment(origin.cfg.name, path);
    const owner = owned?.stream;
    const seg = owned?.seg;
    // An LL-HLS part the stream lists is its object too: cached and shared, not cancelled when its
    // one receiver leaves, so a parent tier fetches it from the origin once however many workers
    // ask (an unplanned object over 1 MiB streams through per request).
    const part = seg === undefined ? streams.part(origin.cfg.name, path) : undefined;
    // A segment of an active stream is one object whatever query a receiver adds (a cache
    // buster, a per-viewer token): the URI the manifest lists, fetched once.
    const fetchPath = seg !== undefined ? seg.path : part !== undefined ? part.path : path + forwardQuery;
    const key = `${origin.cfg.name}${fetchPath}`;
    let entry = cache.get(key);
    let result: 'hit' | 'coalesced' | 'miss';
    if (entry !== undefined) {
      result = entry.state === 'complete' ? 'hit' : 'coalesced';
      if (entry.state === 'pending') origin.client.promote(key);
    } else {
      result = 'miss';
      const e = (entry = cache.create(key));
      // Nobody else will read an object no stream plans: stop fetching it when its receiver leaves
      // (a `Range: bytes=0-99` probe of a 61 MB segment, a query variant, an aborted request).
      e.cancelWhenOrphaned = seg === undefined && part === undefined;
      const split = owner !== undefined && seg !== undefined ? owner.prefetcher.splitFor(seg) : undefined;
      // A receiver waits for a segment the edge does not have: fetch it as parallel ranges.
      origin.client.fetchInto(fetchPath, e, {
        priority: 'player',
        // A listed part is fetched in the unplanned group with the unplanned limits (the stream
        // gives no segment duration for it); only how it is kept differs from an unplanned object.
        group: owner?.key ?? UNPLANNED,
        limits: owner !== undefined && seg !== undefined ? owner.prefetcher.limits(seg.durationSeconds) : unplannedLimits,
        ...(split === undefined ? {} : { split }),
      });
      if (owner !== undefined && seg !== undefined) {
        e.whenHeaders().then(
          () => {
            if (e.expectedBytes !== undefined) owner.prefetcher.noteSize(seg.track, e.expectedBytes);
          },
          () => undefined,
        );
      }
    }
    if (owner !== undefined && seg !== undefined) {
      owner.lastActivityMs = ctx.now();
      owner.prefetcher.noteRequest(seg);
    }
    metrics.cacheRequests.inc({ result });
    hint(req, origin, path, query);
    // Who asks (the CMCD sid, else the address): once per request, for the radio meter, CMSD's etp
    // and the session's facts.
    const receiver = receiverKey(req, query);
    events.emit('segment-request', {
      origin: origin.cfg.name,
      path: fetchPath,
      result,
      bytesAtEdge: entry.bytes,
      receiver,
      ...(owner === undefined ? {} : { stream: owner.key }),
    });
    const cors = req.headers.origin !== undefined;
    // Standard headers, per response (the entry's own headers object is shared by every receiver):
    // Age for what the cache answers (a prefetched segment's Age is how long the edge held it),
    // CMSD-Static (what the object is) and CMSD-Dynamic (this edge, its throughput estimate).
    if (result !== 'miss') res.setHeader('age', ageSeconds(entry.createdAt, ctx.now()));
    const format = owner?.version?.view.kind === 'dash' ? 'dash' : owner === undefined ? undefined : 'hls';
    if (seg !== undefined) res.setHeader('cmsd-static', cmsdStatic('segment', format, seg.durationSeconds));
    else if (/init/i.test(path)) res.setHeader('cmsd-static', cmsdStatic('init', format));
    res.setHeader('cmsd-dynamic', cmsdDynamic(edgeId, ctx.radio.estimate(receiver)?.mbps));
    if (entry.state === 'complete' && req.headers.range === undefined && !head) {
      // Hot path: a cached segment goes out as the Buffers undici delivered, no copy, no await.
      // Pinned until the response closes: a slow receiver's socket holds these Buffers, so the
      // entry stays in the cache (and the budget) meanwhile, and its send deadline runs from now.
      res.writeHead(200, entry.responseHeaders(result, cors));
      meterRadio(res, receiver, entry.bytes);
      const pinned = entry;
      pinned.pin();
      res.once('close', () => pinned.unpin());
      const size = pinned.bytes;
      ctx.sendDeadlines.track(res, () => size, true);
      const chunks = entry.chunks;
      if (chunks.length === 1) res.end(chunks[0]);
      else {
        res.cork();
        for (const c of chunks) res.write(c);
        res.end();
      }
      metrics.bytesOut.inc(entry.bytes);
      metrics.sentBytes += entry.bytes;
      metrics.countRequest('segment', 200);
      return;
    }
    const served = entry;
    // Only hits measure the radio: a response still arriving from the origin is paced by the backhaul.
    void serveEntry(served, req, res, {
      head,
      headers: () => served.responseHeaders(result, cors),
      onError: (err) => {
        const status = statusFor(err);
        sendError(res, status, `origin fetch failed: ${err.code}`, err.code, retryAfterFor(err));
        return status;
      },
      onBug: (e) => ctx.bug('segment response', e),
      deadlines: ctx.sendDeadlines,
    }).then(({ status, bytes }) => {
      // 499: the receiver left before the edge could answer (nginx's convention).
      metrics.countRequest('segment', status === 0 ? 499 : status);
      metrics.bytesOut.inc(bytes);
      metrics.sentBytes += bytes;
    });
  };
}
