import { CollectorError } from '../errors/CollectorError.js';

/** One session's facts as an edge reports them (packages/edge-node SessionFacts). */
export interface EdgeFactRow {
  edge: string;
  session: string;
  stream: string;
  receivedMs: number;
  hold: number;
  group: string | null;
  redirectLocation: string | null;
  manifests: number;
  hits: number;
  coalesced: number;
  misses: number;
  firstAtMs: number;
  lastAtMs: number;
}

const bad = (path: string, why: string) => new CollectorError('COLLECTOR_ERR_BAD_BATCH', `${path} ${why}`, { field: path });
const PRINTABLE = /^[^\u0000-\u001f\u007f]*$/;

/**
 * `POST /v1/edge`: `{ v: 1, edge, sentAt, sessions: [{ session, stream, hold, group, redirect,
 * manifests, hits, coalesced, misses, firstAtMs, lastAtMs }] }` — what an ETHLE edge did for each
 * receiver session (its CMCD sid, the probe's session id). Validated whole, like a beacon batch.
 */
export function parseEdgeReport(text: string, receivedMs: number, maxSessions: number): EdgeFactRow[] {
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    throw new CollectorError('COLLECTOR_ERR_BAD_BATCH', 'the body is not JSON', { field: '' });
  }
  const o = j as Record<string, unknown>;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw bad('report', 'must be a JSON object');
  if (o['v'] !== 1)
    throw new CollectorError('COLLECTOR_ERR_VERSION', `v must be 1, got ${JSON.stringify(o['v']) ?? 'undefined'}`, { field: 'v' });
  const edge = o['edge'];
  if (typeof edge !== 'string' || edge === '' || edge.length > 256 || !PRINTABLE.test(edge))
    throw bad('report.edge', "must be the edge's name (1..256 printable characters)");
  const sessions = o['sessions'];
  if (!Array.isArray(sessions)) throw bad('report.sessions', 'must be an array');
  if (sessions.length > maxSessions)
    throw new CollectorError('COLLECTOR_ERR_TOO_MANY_EVENTS', `report.sessions has ${sessions.length}; at most ${maxSessions}`, {
      field: 'report.sessions',
    });
  return sessions.map((s: unknown, i): EdgeFactRow => {
    const p = `report.sessions[${i}]`;
    if (typeof s !== 'object' || s === null) throw bad(p, 'must be an object');
    const f = s as Record<string, unknown>;
    const str = (k: string, max: number) => {
      const v = f[k];
      if (typeof v !== 'string' || v.length === 0 || v.length > max || !PRINTABLE.test(v))
        throw bad(`${p}.${k}`, `must be a string of 1..${max} printable characters`);
      return v;
    };
    const num = (k: string) => {
      const v = f[k];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
        throw bad(`${p}.${k}`, `must be a number ≥ 0, got ${JSON.stringify(v) ?? 'undefined'}`);
      return v;
    };
    const group = f['group'];
    if (group !== undefined && group !== null && (typeof group !== 'string' || group.length > 32))
      throw bad(`${p}.group`, 'must be a short string');
    const redirect = f['redirect'];
    let location: string | null = null;
    if (redirect !== undefined && redirect !== null) {
      const l = (redirect as Record<string, unknown>)['location'];
      if (typeof l !== 'string' || l.length > 4096) throw bad(`${p}.redirect.location`, 'must be a URL string');
      location = l;
    }
    return {
      edge,
      session: str('session', 200),
      stream: str('stream', 4096),
      receivedMs,
      hold: num('hold'),
      group: typeof group === 'string' ? group : null,
      redirectLocation: location,
      manifests: num('manifests'),
      hits: num('hits'),
      coalesced: num('coalesced'),
      misses: num('misses'),
      firstAtMs: num('firstAtMs'),
      lastAtMs: num('lastAtMs'),
    };
  });
}
