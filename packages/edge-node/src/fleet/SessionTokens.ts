import { signSessionToken, verifySessionToken, type SessionClaims, type SessionMac } from '@ethle/core';
import { createHmac } from 'node:crypto';

/** A token as this edge checked it: the session it names, and its state if it may be adopted. */
export interface CheckedToken {
  sid: string;
  /** The pathway of the edge that issued it ('' outside a fleet). */
  issuer: string;
  /** The claims, or undefined when the token has expired (the sid still names the session). */
  claims: SessionClaims | undefined;
}

/**
 * The fleet's portable session tokens at one edge (issue 21, handover): signs the state of a
 * receiver's session with the fleet secret (HMAC-SHA256, node:crypto) and checks tokens that
 * receivers bring. A token with a bad MAC or shape is ignored (undefined: a fresh session), never
 * an error to the player. Checked tokens are remembered (a receiver sends the same one with every
 * playlist reload): at most `maxEntries`, oldest first out, so the HMAC runs once per token.
 */
export class SessionTokens {
  readonly #mac: SessionMac;
  readonly #ttlSeconds: number;
  readonly #issuer: string;
  readonly #max: number;
  readonly #checked = new Map<string, { sid: string; claims: SessionClaims } | null>();

  constructor(o: { secret: string; ttlSeconds: number; issuer: string; maxEntries: number }) {
    const secret = Buffer.from(o.secret, 'utf8');
    this.#mac = (payload) => createHmac('sha256', secret).update(payload).digest();
    this.#ttlSeconds = o.ttlSeconds;
    this.#issuer = o.issuer;
    this.#max = o.maxEntries;
  }

  /** A token for a session's state now (expires ttlSeconds from now). */
  sign(state: Omit<SessionClaims, 'issuer' | 'expiresAt'>, nowMs: number): Promise<string> {
    return signSessionToken({ ...state, issuer: this.#issuer, expiresAt: Math.floor(nowMs / 1000) + this.#ttlSeconds }, this.#mac);
  }

  /** A token checked before, without awaiting (hot path), or undefined if not seen yet. */
  peek(token: string, nowMs: number): CheckedToken | null | undefined {
    const c = this.#checked.get(token);
    return c == null ? c : { sid: c.sid, issuer: c.claims.issuer, claims: c.claims.expiresAt * 1000 > nowMs ? c.claims : undefined };
  }

  /** Check a token (MAC, shape, expiry); null when it is not a good token of this fleet. */
  async check(token: string, nowMs: number): Promise<CheckedToken | null> {
    const seen = this.peek(token, nowMs);
    if (seen !== undefined) return seen;
    const r = await verifySessionToken(token, this.#mac, Math.floor(nowMs / 1000));
    const entry = r.ok ? { sid: r.claims.sid, claims: r.claims } : null;
    this.#checked.set(token, entry);
    if (this.#checked.size > this.#max) this.#checked.delete(this.#checked.keys().next().value!);
    return this.peek(token, nowMs)!;
  }
}
