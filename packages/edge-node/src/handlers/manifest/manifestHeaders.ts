import type { IncomingMessage } from 'node:http';
import type { EdgeContext, Origin } from '../../EdgeContext.js';
import { ageSeconds, cmsdDynamic, cmsdStatic } from '../../http/cmsdHeaders.js';
import { CORS, HEADERS } from '../../http/HEADERS.js';
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
  // Hot path (every playlist reload): one object filled in place, no spreads; the constant
  // values are made once (cmsdStatic, cmsdDynamic).
  const h: ManifestHeaders = {};
  if (ctx.config.role === 'parent') {
    h[HEADERS.role] = 'parent';
    const rtt = ctx.rttFor(origin.cfg.name);
    // A parent's backhaul RTT for the edges behind it (whole µs), when it has one.
    if (rtt !== undefined) h[HEADERS.upstreamRtt] = rtt.toFixed(3);
  }
  if (req.headers.origin !== undefined) {
    h['access-control-allow-origin'] = CORS['access-control-allow-origin'];
    h['access-control-expose-headers'] = CORS['access-control-expose-headers'];
    h['timing-allow-origin'] = CORS['timing-allow-origin'];
  }
  const dash = version.view.kind === 'dash';
  h['content-type'] = dash ? 'application/dash+xml' : 'application/vnd.apple.mpegurl';
  h['cache-control'] = 'no-cache';
  // Age: how long ago the edge got this version from the origin (hls.js reads it of
  // playlists); CMSD: a live manifest of this format, from this edge, with its throughput
  // estimate for the receiver once it has one.
  h['age'] = ageSeconds(version.fetchedAtMs, ctx.now());
  h['cmsd-static'] = dash ? CMSD_STATIC_DASH : CMSD_STATIC_HLS;
  h['cmsd-dynamic'] = cmsdDynamic(ctx.config.fleet?.pathway ?? 'ethle-edge', ctx.radio.estimate(receiverKey(req, query))?.mbps);
  return h;
}

const CMSD_STATIC_HLS = cmsdStatic('manifest', 'hls');
const CMSD_STATIC_DASH = cmsdStatic('manifest', 'dash');
