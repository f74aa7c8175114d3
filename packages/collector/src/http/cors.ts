import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * CORS for beacons and the query API. The allowed Origin is echoed (with Vary: Origin) rather
 * than '*': navigator.sendBeacon sends credentials, and a credentialed request's response may not
 * carry '*'. A beacon is text/plain, a safelisted type, so it needs no preflight; fetch with
 * application/json does, and OPTIONS answers it.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, allowed: '*' | readonly string[]): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  const ok = allowed === '*' || allowed.includes(origin);
  res.setHeader('Vary', 'Origin');
  if (!ok) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  return true;
}

export function answerPreflight(res: ServerResponse): void {
  res.writeHead(204, {
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': 'Content-Type',
    'Access-Control-Max-Age': '86400',
  });
  res.end();
}
