import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A CMCD sid usable as it is in a response header and a log line (visible ASCII). */
const HEADER_SAFE_RE = /^[\x21-\x7e]{1,128}$/;

/**
 * A CMCD session id as a session key: as it is when it is plain visible ASCII (it is echoed in
 * X-Ethle-Session and logs), else a digest of it — a header with other characters made Node
 * throw and the receiver got a 500.
 */
export function safeSid(sid: string | undefined): string | undefined {
  if (sid === undefined || HEADER_SAFE_RE.test(sid)) return sid;
  return `sid-${createHash('sha256').update(sid).digest('base64url').slice(0, 22)}`;
}

/** The receiver's address (an IPv4-mapped IPv6 address as IPv4): RNI looks receivers up by it. */
export function clientIp(req: IncomingMessage): string {
  const a = req.socket.remoteAddress ?? 'unknown';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}
