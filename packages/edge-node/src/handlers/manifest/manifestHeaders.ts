import type { IncomingMessage } from 'node:http';
import type { EdgeContext, Origin } from '../../EdgeContext.js';
import { ageSeconds, cmsdDynamic, cmsdStatic } from '../../http/cmsdHeaders.js';
import { CORS, HEADERS, NO_CORS } from '../../http/HEADERS.js';
import { receiverKey } from '../../radio/receiverKey.js';
import type { Version } from '../../stream/LiveStream.js';

/** A manifest response's headers, filled in as the request is decided (hold, session, token). */
export type ManifestHeaders = Record<string, string | number>;

/**
 * The headers every manifest response of a stream version starts with: a parent's role and
 * backhaul RTT, CORS, the format's content type, no caching, Age and CMSD.
 */
export function manifestHeaders(
  ctx: Pick<EdgeContext, 'config' | 'now' | 'radio' | 'rttFor'>,
  req: IncomingMessage,
  query: URLSearchParams,
  origin: Origin,
  version: Version,
): ManifestHeaders {
  return {
    ...(ctx.config.role === 'parent' ? { [HEADERS.role]: 'parent', ...upstreamRtt(ctx.rttFor(origin.cfg.name)) } : {}),
    ...(req.headers.origin === undefined ? NO_CORS : CORS),
    'content-type': version.view.kind === 'dash' ? 'application/dash+xml' : 'application/vnd.apple.mpegurl',
    'cache-control': 'no-cache',
    // Age: how long ago the edge got this version from the origin (hls.js reads it of
    // playlists); CMSD: a live manifest of this format, from this edge, with its throughput
    // estimate for the receiver once it has one.
    age: ageSeconds(version.fetchedAtMs, ctx.now()),
    'cmsd-static': cmsdStatic('manifest', version.view.kind === 'dash' ? 'dash' : 'hls'),
    'cmsd-dynamic': cmsdDynamic(ctx.config.fleet?.pathway ?? 'ethle-edge', ctx.radio.estimate(receiverKey(req, query))?.mbps),
  };
}

/** A parent's backhaul RTT for the edges behind it (whole µs), when it has one. */
function upstreamRtt(ms: number | undefined): Record<string, string> {
  return ms === undefined ? {} : { [HEADERS.upstreamRtt]: ms.toFixed(3) };
}
