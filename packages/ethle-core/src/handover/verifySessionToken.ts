import { asciiBytes, fromBase64url } from './base64url.js';
import { SESSION_TOKEN_MAX_LENGTH, type SessionClaims, type SessionMac } from './SessionClaims.js';
import { SESSION_MAC_BYTES } from './signSessionToken.js';

export type SessionTokenCheck =
  { ok: true; claims: SessionClaims; expired: boolean } | { ok: false; reason: 'malformed' | 'too-long' | 'bad-signature' };

const TOKEN_RE = /^e1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

/**
 * Check a session token: its shape, its MAC (compared in constant time), then its claims. A token
 * that fails is never an error to the receiver — the edge ignores it and starts a fresh session —
 * so the reason is returned, not thrown. An expired token with a good MAC is reported as such
 * (`expired`): its sid still names the session at the edge that knows it, but its state must not
 * be adopted elsewhere.
 */
export async function verifySessionToken(token: string, mac: SessionMac, nowSeconds: number): Promise<SessionTokenCheck> {
  if (token.length > SESSION_TOKEN_MAX_LENGTH) return { ok: false, reason: 'too-long' };
  const m = TOKEN_RE.exec(token);
  if (m === null) return { ok: false, reason: 'malformed' };
  const given = fromBase64url(m[2]!);
  const json = fromBase64url(m[1]!);
  if (given === undefined || json === undefined || given.length !== SESSION_MAC_BYTES) return { ok: false, reason: 'malformed' };
  const want = (await mac(asciiBytes(`e1.${m[1]}`))).subarray(0, SESSION_MAC_BYTES);
  let diff = 0;
  for (let i = 0; i < SESSION_MAC_BYTES; i++) diff |= given[i]! ^ want[i]!;
  if (diff !== 0) return { ok: false, reason: 'bad-signature' };
  const claims = decodeClaims(String.fromCharCode(...json));
  if (claims === undefined) return { ok: false, reason: 'malformed' };
  return { ok: true, claims, expired: claims.expiresAt <= nowSeconds };
}

/** The claims of a payload we signed ourselves; undefined if anything is off (a key changed meaning). */
function decodeClaims(text: string): SessionClaims | undefined {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { s, t, x, n, i, e, g, r } = o;
  if (typeof s !== 'string' || typeof t !== 'string' || typeof i !== 'string') return undefined;
  if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > 100) return undefined;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return undefined;
  if (typeof e !== 'number' || !Number.isInteger(e)) return undefined;
  if (g !== undefined && g !== 0 && g !== 1) return undefined;
  if (r !== undefined && !(typeof r === 'number' && r > 0)) return undefined;
  return {
    sid: s,
    stream: t,
    x,
    requests: n,
    issuer: i,
    expiresAt: e,
    group: g === undefined ? undefined : g === 1 ? 'hold-x' : 'hold-0',
    radioBps: r as number | undefined,
  };
}
