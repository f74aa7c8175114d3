import type { ServerResponse } from 'node:http';
import type { EdgeError } from '../errors/EdgeError.js';
import type { EdgeErrorCode } from '../errors/EdgeErrorCode.js';
import { HEADERS } from './HEADERS.js';
import { httpDate } from './httpDate.js';

/**
 * Origin statuses passed on to receivers as they are: the origin's answer about the object (not
 * produced yet, gone, forbidden, bad request, slow down, unavailable for now), which players act
 * on. Anything else from the origin is the edge's problem to report: 502.
 */
const PASSED_ON = new Set([400, 401, 403, 404, 410, 416, 429, 503]);

/** Receiver-facing status for an edge error: 504 timeout, origin answers passed on, else 502. */
export function statusFor(e: EdgeError): number {
  switch (e.code) {
    case 'ERR_EDGE_ORIGIN_TIMEOUT':
      return 504;
    case 'ERR_EDGE_ORIGIN_STATUS': {
      const s = e.details['status'];
      return typeof s === 'number' && PASSED_ON.has(s) ? s : 502;
    }
    case 'ERR_EDGE_CLOSED':
    case 'ERR_EDGE_OVERLOADED':
    case 'ERR_EDGE_CANCELLED':
    case 'ERR_EDGE_CACHE_FULL':
    case 'ERR_EDGE_BLOCKING_TIMEOUT':
    case 'ERR_EDGE_BLOCKED_FULL':
      return 503;
    case 'ERR_EDGE_BLOCKING_BAD_REQUEST':
      return 400;
    case 'ERR_EDGE_TIMELINE_UNKNOWN_STREAM':
      return 404;
    case 'ERR_EDGE_INTERNAL':
      return 500;
    default:
      return 502;
  }
}

/** A short plain-text error; never a body that could pass for media. */
export function sendError(res: ServerResponse, status: number, message: string, code?: EdgeErrorCode, retryAfter?: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = `${status} ${message}\n`;
  res.writeHead(status, {
    // A manifest's answers carry Date themselves (createRouter); the same value for the others.
    date: httpDate(),
    'access-control-allow-origin': '*',
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...(code === undefined ? {} : { [HEADERS.error]: code }),
    ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
  });
  res.end(body);
}

/** The origin's Retry-After (kept with an ERR_EDGE_ORIGIN_STATUS), or the edge's own for 503s. */
export function retryAfterFor(e: EdgeError): string | undefined {
  const r = e.details['retryAfter'];
  if (typeof r === 'string' && RETRY_AFTER_RE.test(r)) return r;
  return e.code === 'ERR_EDGE_OVERLOADED' ? '1' : undefined;
}

// Seconds or an HTTP date: nothing else is passed on as a header value.
const RETRY_AFTER_RE = /^(?:\d{1,6}|[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT)$/;
