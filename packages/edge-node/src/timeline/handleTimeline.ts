import type { ServerResponse } from 'node:http';
import type { EdgeContext } from '../EdgeContext.js';
import { CORS } from '../http/HEADERS.js';
import type { RequestTarget } from '../http/parseTarget.js';
import { sendError } from '../http/sendError.js';
import { SegmentTimeline } from './SegmentTimeline.js';

/** In the edge's reserved path space: never an origin path. */
export const TIMELINE_PATH = '/_ethle/timeline';
/** Recent segments kept per stream (100 s of 2 s HLS segments with audio and video tracks). */
const MAX_SEGMENTS = 200;

/**
 * `GET /_ethle/timeline?stream=/live/2M-2s/index.m3u8` (the manifest path as receivers ask the
 * edge for it): the stream's recent segments as JSON (TimelineSnapshot), with CORS so a page on
 * another origin (the demo) can draw it. Without `stream`: the streams it knows. A stream the edge
 * has not seen is a 404 naming the known ones. The timeline listens from the edge's start on.
 */
export function createTimelineHandler(ctx: EdgeContext): (res: ServerResponse, target: RequestTarget) => void {
  const { cache, streams, origins, policy } = ctx;
  const timeline = new SegmentTimeline({
    events: ctx.events,
    lookup: (origin, path) => {
      const found = streams.segment(origin, path);
      return found === undefined ? undefined : { stream: found.stream.key, seg: found.seg };
    },
    entryOf: (origin, path) => cache.peek(`${origin}${path}`),
    now: ctx.now,
    maxSegments: MAX_SEGMENTS,
    maxStreams: ctx.config.maxStreams,
  });
  const json = (res: ServerResponse, body: unknown): void => {
    res.writeHead(200, { ...CORS, 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  };

  return function handleTimeline(res, target) {
    const asked = target.query.get('stream');
    if (asked === null) return json(res, { v: 1, streams: timeline.streams() });
    // The edge path of a manifest → its stream key, as the router maps it (`/{name}/…` with several origins).
    let key: string | undefined;
    for (const o of origins.values()) {
      if (o.prefix === '' || asked.startsWith(`${o.prefix}/`)) key = `${o.cfg.name}${asked.slice(o.prefix.length)}`;
      if (key !== undefined && timeline.has(key)) break;
    }
    const snap = key === undefined ? undefined : timeline.snapshot(key, policy.streamHold(key));
    if (snap === undefined) {
      const known = timeline.streams();
      sendError(
        res,
        404,
        `no timeline for stream ${JSON.stringify(asked.slice(0, 200))}: it has not been played through this edge${known.length ? ` (known: ${known.join(', ')})` : ''}`,
        'ERR_EDGE_TIMELINE_UNKNOWN_STREAM',
      );
      return;
    }
    json(res, snap);
  };
}
