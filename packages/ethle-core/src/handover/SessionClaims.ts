import type { PolicyGroup } from '../policy/PolicyGroups.js';

/**
 * What a receiver's session carries from one edge of a fleet to another (issue 21, handover):
 * enough for the next edge to go on where the last left off — the paper's monotone rule (a hold-x
 * receiver never goes back to hold-0) and the x it was served (no jump back in its playlist), the
 * requests seen and its last radio measurement (no first-request treatment again).
 */
export interface SessionClaims {
  /** The session id (the key edges file the receiver under). Visible ASCII, ≤ 64 characters. */
  sid: string;
  /** streamTag() of the stream the state is for ('' for none: a multivariant playlist's token). */
  stream: string;
  group: PolicyGroup | undefined;
  /** The x the receiver was last served (0 … 100). */
  x: number;
  /** Manifest requests seen. */
  requests: number;
  /** The last radio measurement (bits/s) and where it came from, if any. */
  radioBps: number | undefined;
  /** The issuing edge's pathway id (or '' outside a fleet), for logs. */
  issuer: string;
  /** Expiry, seconds since the epoch. */
  expiresAt: number;
}

/** Longest token accepted: a URL query parameter must stay small; anything longer is not ours. */
export const SESSION_TOKEN_MAX_LENGTH = 400;

/**
 * A message authentication code over the token's payload (HMAC-SHA256 with the fleet's secret in
 * practice). Injected, so the core does no crypto I/O: Node's createHmac, or WebCrypto's
 * `crypto.subtle.sign('HMAC', …)` in a service worker.
 */
export type SessionMac = (payload: Uint8Array) => Uint8Array | PromiseLike<Uint8Array>;
