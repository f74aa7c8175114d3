import { isEthleError, type SessionClaims } from '@ethle/core';
import type { SessionTokens } from '../../fleet/SessionTokens.js';

/** A signed token of a session, or undefined without a fleet secret or for a sid a token cannot carry. */
export async function signedToken(
  tokens: SessionTokens | undefined,
  state: Omit<SessionClaims, 'issuer' | 'expiresAt'>,
  nowMs: number,
): Promise<string | undefined> {
  if (tokens === undefined) return undefined;
  try {
    return await tokens.sign(state, nowMs);
  } catch (e) {
    // A CMCD sid longer than a token carries: the session stays at this edge, as without tokens.
    if (isEthleError(e) && e.code === 'ERR_SESSION_TOKEN_INVALID') return undefined;
    throw e;
  }
}
