import { CollectorError } from '../errors/CollectorError.js';
import type { SqlValue } from '../store/Store.js';

/** The dimensions a fleet view splits and filters sessions by (sessions' columns). */
export const DIMENSIONS = ['edge', 'scheme', 'player', 'stream'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** Time buckets of the per-period series. */
export const BUCKETS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
export type Bucket = keyof typeof BUCKETS;

/** What a query API request selects: a time range on the collector's clock and equality filters. */
export interface FleetFilter {
  /** Epoch ms, inclusive / exclusive; by when the collector received the batches. */
  fromMs: number;
  toMs: number;
  equals: Partial<Record<Dimension, string>>;
  by: Dimension | null;
  bucket: Bucket;
}

const badQuery = (param: string, message: string) => new CollectorError('COLLECTOR_ERR_BAD_QUERY', `${param}: ${message}`, { param });

function time(q: URLSearchParams, name: string, def: number, nowMs: number): number {
  const raw = q.get(name);
  if (raw === null || raw === '') return def;
  // Epoch ms, or "-1h" / "-30m" / "-7d" relative to now.
  const rel = /^-(\d+(?:\.\d+)?)(m|h|d)$/.exec(raw);
  if (rel) return nowMs - Number(rel[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as 'm' | 'h' | 'd'];
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !Number.isFinite(n))
    throw badQuery(name, `must be epoch milliseconds or -N[m|h|d], got ${JSON.stringify(raw)}`);
  return n;
}

/** Reads from, to, by, bucket and the dimension filters; anything else it knows not is refused. */
export function parseFleetFilter(q: URLSearchParams, nowMs: number, allowed: readonly string[] = []): FleetFilter {
  for (const k of q.keys()) {
    if (!['from', 'to', 'by', 'bucket', ...DIMENSIONS, ...allowed].includes(k))
      throw badQuery(k, `unknown parameter (known: from, to, by, bucket, ${[...DIMENSIONS, ...allowed].join(', ')})`);
  }
  const fromMs = time(q, 'from', 0, nowMs);
  const toMs = time(q, 'to', nowMs + 60_000, nowMs);
  if (toMs <= fromMs) throw badQuery('to', 'must be after from');
  const by = q.get('by');
  if (by !== null && by !== 'none' && !(DIMENSIONS as readonly string[]).includes(by))
    throw badQuery('by', `must be one of none, ${DIMENSIONS.join(', ')}; got ${JSON.stringify(by)}`);
  const bucket = q.get('bucket') ?? 'hour';
  if (!(bucket in BUCKETS)) throw badQuery('bucket', `must be minute, hour or day; got ${JSON.stringify(bucket)}`);
  const equals: FleetFilter['equals'] = {};
  for (const d of DIMENSIONS) {
    const v = q.get(d);
    if (v !== null) {
      if (v.length > 256) throw badQuery(d, 'is longer than 256 characters');
      equals[d] = v;
    }
  }
  return { fromMs, toMs, equals, by: by === null || by === 'none' ? null : (by as Dimension), bucket: bucket as Bucket };
}

/** SQL builder state: parameters numbered $1… in the order they are added. */
export class Params {
  readonly values: SqlValue[] = [];
  add(v: SqlValue): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/** `AND s.edge = $n …` for the filter's dimensions (s: the sessions table's alias). */
export function dimensionWhere(f: FleetFilter, p: Params, alias = 's'): string {
  return Object.entries(f.equals)
    .map(([d, v]) => ` AND ${alias}.${d} = ${p.add(v)}`)
    .join('');
}

/** The group a session falls in: its value of `by`, or 'all'. */
export function groupExpr(f: FleetFilter, alias = 's'): string {
  return f.by === null ? `'all'` : `${alias}.${f.by}`;
}
