import type { IncomingMessage } from 'node:http';
import { readCmcd } from './readCmcd.js';

/**
 * Which receiver a request is, for what the edge measures of its radio: the CMCD session id when
 * the player sends one (on every request, segments included), else its address. (The session
 * token the edge puts into variant URIs is on playlist requests only, never on segments.)
 */
export function receiverKey(req: IncomingMessage, query: URLSearchParams): string {
  const hasCmcd = query.has('CMCD') || req.headers['cmcd-session'] !== undefined;
  const sid = hasCmcd ? readCmcd(query, req.headers).sid : undefined;
  if (sid !== undefined) return `sid:${sid}`;
  const a = req.socket.remoteAddress ?? 'unknown';
  return `ip:${a.startsWith('::ffff:') ? a.slice(7) : a}`;
}
