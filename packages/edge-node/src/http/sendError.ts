import type { ServerResponse } from 'node:http';
import type { EdgeError } from '../errors/EdgeError.js';

/** Receiver-facing status for an origin failure: 504 timeout, 404/410 passed on, else 502. */
export function statusFor(e: EdgeError): number {
  switch (e.code) {
    case 'ERR_EDGE_ORIGIN_TIMEOUT':
      return 504;
    case 'ERR_EDGE_ORIGIN_STATUS': {
      const s = e.details['status'];
      // A segment not produced yet / gone is the origin's answer, and players act on it.
      return s === 404 || s === 410 ? s : 502;
    }
    case 'ERR_EDGE_CLOSED':
      return 503;
    default:
      return 502;
  }
}

/** A short plain-text error; never a body that could pass for media. */
export function sendError(res: ServerResponse, status: number, message: string, code?: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = `${status} ${message}\n`;
  res.writeHead(status, {
    'access-control-allow-origin': '*',
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...(code === undefined ? {} : { 'x-ethle-error': code }),
  });
  res.end(body);
}
