import { streamTag, type SessionClaims } from '@ethle/core';
import { request } from 'undici';
import type { SessionTokens } from './SessionTokens.js';

/** The path a peer edge asks for a session's current token (HLS handover from a live peer). */
export const SESSION_PATH = '/_ethle/session';

/** Pulls in flight at most; beyond, a moved receiver starts fresh rather than wait in a queue. */
const MAX_IN_FLIGHT = 64;
/** Tokens already pulled for (a failed pull is not tried again on every playlist reload). */
const MAX_REMEMBERED = 10_000;

/**
 * A receiver arrives with a token that carries no state for its stream — hls.js keeps the variant
 * URIs (and their token) of the multivariant playlist it loaded first, so its token says only
 * who it is and which edge issued it. When that edge is a live peer (a handover, not a failure),
 * this edge asks it (GET /_ethle/session) for the session's current token, once per token, with a
 * short timeout: the receiver's state as that edge holds it now. A dead or slow peer, or one that
 * does not know the session, gives undefined (a fresh session here). Bounded: at most
 * MAX_IN_FLIGHT pulls, MAX_REMEMBERED tokens remembered.
 */
export class SessionHandover {
  readonly #tokens: SessionTokens;
  readonly #peers: Map<string, string>;
  readonly #timeoutMs: number;
  readonly #inFlight = new Map<string, Promise<SessionClaims | undefined>>();
  readonly #tried = new Set<string>();

  constructor(tokens: SessionTokens, peers: ReadonlyArray<{ id: string; url: string }>, timeoutMs: number) {
    this.#tokens = tokens;
    this.#peers = new Map(peers.map((p) => [p.id, p.url]));
    this.#timeoutMs = timeoutMs;
  }

  /** Whether a pull for this token could happen (a known peer issued it, not tried yet). */
  canPull(token: string, issuer: string): boolean {
    return this.#peers.has(issuer) && !this.#tried.has(token);
  }

  /** The session's state for `streamKey` at the peer that issued `token`, or undefined. */
  pull(token: string, issuer: string, streamKey: string, nowMs: () => number): Promise<SessionClaims | undefined> {
    const running = this.#inFlight.get(token);
    if (running !== undefined) return running;
    const peer = this.#peers.get(issuer);
    if (peer === undefined || this.#tried.has(token) || this.#inFlight.size >= MAX_IN_FLIGHT) return Promise.resolve(undefined);
    this.#tried.add(token);
    if (this.#tried.size > MAX_REMEMBERED) this.#tried.delete(this.#tried.values().next().value!);
    const tag = streamTag(streamKey);
    const p = (async () => {
      try {
        const r = await request(`${peer}${SESSION_PATH}?stream=${tag}&ethle_session=${encodeURIComponent(token)}`, {
          signal: AbortSignal.timeout(this.#timeoutMs),
        });
        const body = await r.body.text();
        if (r.statusCode !== 200) return undefined;
        const c = await this.#tokens.check(body.trim(), nowMs());
        return c?.claims !== undefined && c.claims.stream === tag && c.sid === (await this.#tokens.check(token, nowMs()))?.sid
          ? c.claims
          : undefined;
      } catch {
        // The peer is gone or slow (a failure, not a handover): the receiver starts fresh here.
        return undefined;
      }
    })().finally(() => this.#inFlight.delete(token));
    this.#inFlight.set(token, p);
    return p;
  }
}
