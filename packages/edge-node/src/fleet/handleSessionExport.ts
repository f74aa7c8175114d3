import { streamTag } from '@ethle/core';
import type { ServerResponse } from 'node:http';
import type { EdgeContext } from '../EdgeContext.js';
import type { RequestTarget } from '../http/parseTarget.js';
import { sendError } from '../http/sendError.js';

/**
 * GET /_ethle/session?stream=TAG&ethle_session=TOKEN — a peer edge asks for the current state of
 * a session it was handed (SessionHandover): a fresh token for the stream with that tag, signed
 * here. Only for an unexpired token of this fleet (its MAC proves the caller holds that
 * receiver's token; its expiry bounds how long holding it is worth anything — an expired token
 * that bought a fresh one would never expire), and only for a session this edge knows; else 404.
 */
export async function handleSessionExport(ctx: EdgeContext, res: ServerResponse, target: RequestTarget): Promise<void> {
  const token = target.query.get('ethle_session');
  const tag = target.query.get('stream');
  const tokens = ctx.sessionTokens;
  if (tokens === undefined || token === null || tag === null) return sendError(res, 404, 'no such session');
  const c = await tokens.check(token, ctx.now());
  if (c === null || c.claims === undefined) return sendError(res, 404, 'no such session');
  // Bounded by maxStreams; only a moved receiver's first request lands here.
  let stream: string | undefined;
  for (const s of ctx.streams.values()) if (streamTag(s.key) === tag) stream = s.key;
  const st = stream === undefined ? undefined : ctx.policy.sessionState(stream, c.sid);
  const x = stream === undefined ? undefined : ctx.policy.servedHold(stream, c.sid);
  if (st === undefined || x === undefined) return sendError(res, 404, 'no such session');
  const fresh = await tokens.sign(
    { sid: c.sid, stream: tag, group: st.group, x, requests: st.requests, radioBps: st.estimate?.bps },
    ctx.now(),
  );
  res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(fresh) }).end(fresh);
}
