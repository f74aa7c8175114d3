import type { SessionClaims } from '@ethle/core';
import type { SessionTokens } from '../../fleet/SessionTokens.js';

/** An unsigned session token: an id the edge issued into variant URIs. */
const TOKEN_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** What a receiver's `ethle_session` query parameter told. */
export interface ReceivedToken {
  /** The parameter as sent (a signed token is passed on to its issuer for handover). */
  param: string | null;
  /** The session id it names, when it is a usable one. */
  sid: string | undefined;
  /** A session handed over from another edge of the fleet: its state, when the token may be adopted. */
  handed: SessionClaims | undefined;
  /** Who issued a signed token (a peer to ask for the session's state). */
  issuer: string | undefined;
}

/**
 * The receiver's session token. A signed one (`e1.`, with a fleet secret) is checked once, then
 * remembered: a reload gets its answer without awaiting (hot path), so the result is a promise only
 * on a token's first check. A forged or malformed token is ignored — a fresh session, never an
 * error to the player.
 */
export function readSessionToken(
  query: URLSearchParams,
  tokens: SessionTokens | undefined,
  nowMs: number,
): ReceivedToken | Promise<ReceivedToken> {
  const param = query.get('ethle_session');
  const none: ReceivedToken = { param, sid: undefined, handed: undefined, issuer: undefined };
  if (param === null) return none;
  if (tokens !== undefined && param.startsWith('e1.')) {
    const peeked = tokens.peek(param, nowMs);
    if (peeked !== undefined) return peeked === null ? none : { param, sid: peeked.sid, handed: peeked.claims, issuer: peeked.issuer };
    return tokens.check(param, nowMs).then((c) => (c === null ? none : { param, sid: c.sid, handed: c.claims, issuer: c.issuer }));
  }
  return TOKEN_RE.test(param) ? { ...none, sid: param } : none;
}
