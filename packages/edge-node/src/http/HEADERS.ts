import { ETHLE_EXPOSED_HEADERS, ETHLE_HEADERS } from '@ethle/core';

/**
 * Every header name (the core's table) and CORS policy the edge uses. Receivers read the X-Ethle-*
 * headers (the QoE probe, the demo); they are exposed to pages on other origins.
 */
export const HEADERS = ETHLE_HEADERS;

/**
 * Headers a page on another origin may read from the edge's responses: Age (hls.js reads it of
 * playlists) and CMSD (dash.js reads it with `streaming.cmsd` on) among them.
 */
const EXPOSED = `Date, Age, CMSD-Static, CMSD-Dynamic, ${ETHLE_EXPOSED_HEADERS}, Content-Range, Accept-Ranges`;

/**
 * CORS for media responses (players run on other origins, e.g. the demo app). Sent only to
 * requests with an Origin header — browsers always send one cross-origin — so other clients get
 * lean responses (header validation is a large share of a small manifest response's cost in Node).
 * Timing-Allow-Origin lets the page's QoE probe see from Resource Timing whether a request opened
 * a connection.
 * Not for /metrics: that is for the operator's scraper, never for a page on another origin.
 */
export const CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED, 'timing-allow-origin': '*' } as const;

/** The answer to a CORS preflight: players send CMCD headers and Range. */
export const CORS_PREFLIGHT = {
  ...CORS,
  'access-control-allow-methods': 'GET, HEAD',
  'access-control-allow-headers': 'CMCD-Request, CMCD-Object, CMCD-Status, CMCD-Session, Range',
  'access-control-max-age': '600',
} as const;
