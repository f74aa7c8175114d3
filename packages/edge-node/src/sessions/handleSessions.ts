import type { ServerResponse } from 'node:http';
import type { EdgeContext } from '../EdgeContext.js';
import { CORS } from '../http/HEADERS.js';
import type { RequestTarget } from '../http/parseTarget.js';
import { sendError } from '../http/sendError.js';
import { SESSIONS_PATH } from './SessionFacts.js';

/** Facts listed by one `?since=` answer at most. */
const MAX_LISTED = 5000;

/**
 * `GET /_ethle/sessions/{id}`: what the edge did for that session (one fact per stream), 404 if
 * it has none; `GET /_ethle/sessions?since=MS`: the facts that changed since then (epoch ms, the
 * edge's clock), at most 5000 — what a collector that pulls instead of being sent reads.
 */
export function handleSessions(ctx: EdgeContext, res: ServerResponse, target: RequestTarget): void {
  const json = (body: unknown): void => {
    res.writeHead(200, { ...CORS, 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  };
  if (target.path === SESSIONS_PATH) {
    const raw = target.query.get('since') ?? '0';
    if (!/^\d{1,16}$/.test(raw)) return sendError(res, 400, `since must be epoch milliseconds, got ${JSON.stringify(raw.slice(0, 40))}`);
    return json({ v: 1, now: ctx.now(), sessions: ctx.sessions.changedSince(Number(raw), MAX_LISTED) });
  }
  const id = decodeURIComponent(target.path.slice(SESSIONS_PATH.length + 1));
  const facts = ctx.sessions.of(id);
  if (facts.length === 0) return sendError(res, 404, `no session ${JSON.stringify(id.slice(0, 140))} at this edge`);
  json({ v: 1, now: ctx.now(), sessions: facts });
}
