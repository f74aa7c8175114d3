import { EthleError } from '../errors/EthleError.js';
import { asciiBytes, toBase64url } from './base64url.js';
import { SESSION_TOKEN_MAX_LENGTH, type SessionClaims, type SessionMac } from './SessionClaims.js';

const SID_RE = /^[\x21-\x7e]{1,64}$/;
const ID_RE = /^[A-Za-z0-9._-]{0,64}$/;
/** The MAC is cut to 128 bits: forging still needs 2^128 guesses, and the token stays short. */
export const SESSION_MAC_BYTES = 16;
const VERSION = 'e1';

/** The compact JSON payload (short keys: the token rides in every manifest URL). */
export function encodeSessionClaims(c: SessionClaims): string {
  const bad = (what: string): never => {
    throw new EthleError('ERR_SESSION_TOKEN_INVALID', `session claims: ${what}`, { claims: c });
  };
  if (!SID_RE.test(c.sid)) bad('sid must be 1–64 visible ASCII characters');
  if (!/^[0-9a-f]{0,8}$/.test(c.stream)) bad('stream must be a streamTag()');
  if (!ID_RE.test(c.issuer)) bad('issuer must be a pathway id');
  if (!Number.isInteger(c.x) || c.x < 0 || c.x > 100) bad('x must be an integer 0…100');
  if (!Number.isInteger(c.requests) || c.requests < 0) bad('requests must be an integer ≥ 0');
  if (!Number.isInteger(c.expiresAt) || c.expiresAt <= 0) bad('expiresAt must be whole seconds since the epoch');
  if (c.radioBps !== undefined && !(c.radioBps > 0 && Number.isFinite(c.radioBps))) bad('radioBps must be a positive number');
  const o: Record<string, unknown> = { s: c.sid, t: c.stream, x: c.x, n: Math.min(c.requests, 1e9), i: c.issuer, e: c.expiresAt };
  if (c.group !== undefined) o.g = c.group === 'hold-x' ? 1 : 0;
  if (c.radioBps !== undefined) o.r = Math.round(c.radioBps);
  return JSON.stringify(o);
}

/**
 * A signed session token: `e1.<payload>.<mac>`, base64url, at most SESSION_TOKEN_MAX_LENGTH
 * characters (a longer one is refused here, ERR_SESSION_TOKEN_INVALID, as every edge would
 * ignore it). Safe in a URL query without escaping.
 */
export async function signSessionToken(claims: SessionClaims, mac: SessionMac): Promise<string> {
  const payload = `${VERSION}.${toBase64url(asciiBytes(encodeSessionClaims(claims)))}`;
  const m = await mac(asciiBytes(payload));
  const token = `${payload}.${toBase64url(m.subarray(0, SESSION_MAC_BYTES))}`;
  if (token.length > SESSION_TOKEN_MAX_LENGTH)
    throw new EthleError('ERR_SESSION_TOKEN_INVALID', `session token of ${token.length} characters exceeds ${SESSION_TOKEN_MAX_LENGTH}`, {
      length: token.length,
    });
  return token;
}
