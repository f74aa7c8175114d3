import type { ValidBatch } from '../beacon/ValidBatch.js';
import type { SqlValue } from './Store.js';
import { BATCH_TABLE, SESSION_TABLE } from './tables.js';

/**
 * A session's totals over every batch stored for it, kept in its `sessions` row (migration 4) so
 * the fleet view and the session list read one row per session, not every batch. A range that
 * holds all of a session's batches (min_received_ms ≥ from, max_received_ms < to) takes these; a
 * range that cuts a session still sums its batches (src/query/sessionRows.ts).
 */
export const SESSION_TOTAL_COLUMNS = [
  // The first and last batch's arrival, collector clock (first_received_ms is the session row's
  // first write, which another collector of a fleet may have made later than a batch it holds).
  ['min_received_ms', 'DOUBLE PRECISION'],
  ['max_received_ms', 'DOUBLE PRECISION'],
  ['batches', 'INTEGER'],
  ['max_seq', 'INTEGER'],
  ['startup_ms', 'DOUBLE PRECISION'],
  ['stall_count', 'INTEGER'],
  ['stall_ms', 'DOUBLE PRECISION'],
  ['watch_ms', 'DOUBLE PRECISION'],
  ['segments', 'INTEGER'],
  ['ended', 'BOOLEAN'],
] as const;

/**
 * The totals as SQL computes them from `batches`: what the migration fills existing sessions
 * with, and what the store contract checks the kept totals against. A batch's time watched is
 * watch_ms, or sent − first event for rows from before migration 3.
 */
export const SESSION_TOTALS_SELECT = `SELECT session_id, min(received_ms) AS min_received_ms, max(received_ms) AS max_received_ms,
    count(*) AS batches, max(seq) AS max_seq, min(startup_ms) AS startup_ms, sum(stall_count) AS stall_count,
    sum(stall_ms) AS stall_ms, sum(coalesce(watch_ms, greatest(0, sent_ms - first_at_ms))) AS watch_ms,
    sum(segments) AS segments, bool_or(final) AS ended
  FROM batches GROUP BY session_id`;

export const SESSION_TOTALS_BACKFILL = `UPDATE sessions SET ${SESSION_TOTAL_COLUMNS.map(([c]) => `${c} = t.${c}`).join(', ')}
  FROM (${SESSION_TOTALS_SELECT}) t WHERE sessions.session_id = t.session_id`;

/** A min or max that keeps the other side where one is NULL, whatever LEAST does with NULLs. */
const either = (fn: 'least' | 'greatest', c: string) => `coalesce(${fn}(sessions.${c}, excluded.${c}), sessions.${c}, excluded.${c})`;
const MERGE: Record<(typeof SESSION_TOTAL_COLUMNS)[number][0], string> = {
  min_received_ms: either('least', 'min_received_ms'),
  max_received_ms: either('greatest', 'max_received_ms'),
  batches: 'coalesce(sessions.batches, 0) + excluded.batches',
  max_seq: either('greatest', 'max_seq'),
  startup_ms: either('least', 'startup_ms'),
  stall_count: 'coalesce(sessions.stall_count, 0) + excluded.stall_count',
  stall_ms: 'coalesce(sessions.stall_ms, 0) + excluded.stall_ms',
  watch_ms: 'coalesce(sessions.watch_ms, 0) + excluded.watch_ms',
  segments: 'coalesce(sessions.segments, 0) + excluded.segments',
  ended: 'coalesce(sessions.ended, false) OR excluded.ended',
};

/** Every column the upsert writes: the session's labels (its first batch's), then its totals. */
export const SESSION_UPSERT_COLUMNS: readonly string[] = [
  ...SESSION_TABLE.columns.map(([c]) => c),
  ...SESSION_TOTAL_COLUMNS.map(([c]) => c),
];

/** Where in a batches row (BATCH_TABLE.rows) each column is: the totals add up exactly what was stored. */
const at = Object.fromEntries(BATCH_TABLE.columns.map(([c], i) => [c, i])) as Record<string, number>;

/**
 * One row per session of `fresh` (batches stored by this transaction, none twice), in session id
 * order (so two PostgreSQL collectors upserting the same sessions take their row locks in one
 * order and cannot deadlock): labels from its first batch here, totals of its batches here.
 */
export function sessionTotalRows(fresh: readonly ValidBatch[]): SqlValue[][] {
  const per = new Map<string, SqlValue[]>();
  for (const b of fresh) {
    const r = BATCH_TABLE.rows(b)[0]!;
    const num = (c: string) => r[at[c]!] as number;
    const startup = r[at['startup_ms']!] as number | null;
    const watch = (r[at['watch_ms']!] as number | null) ?? Math.max(0, num('sent_ms') - num('first_at_ms'));
    const t = per.get(b.session);
    if (t === undefined) {
      const labels = SESSION_TABLE.rows(b)[0]!;
      per.set(b.session, [
        ...labels,
        num('received_ms'),
        num('received_ms'),
        1,
        num('seq'),
        startup,
        num('stall_count'),
        num('stall_ms'),
        watch,
        num('segments'),
        Boolean(r[at['final']!]),
      ]);
      continue;
    }
    const k = SESSION_TABLE.columns.length;
    t[k] = Math.min(t[k] as number, num('received_ms'));
    t[k + 1] = Math.max(t[k + 1] as number, num('received_ms'));
    t[k + 2] = (t[k + 2] as number) + 1;
    t[k + 3] = Math.max(t[k + 3] as number, num('seq'));
    t[k + 4] = t[k + 4] === null ? startup : startup === null ? t[k + 4]! : Math.min(t[k + 4] as number, startup);
    t[k + 5] = (t[k + 5] as number) + num('stall_count');
    t[k + 6] = (t[k + 6] as number) + num('stall_ms');
    t[k + 7] = (t[k + 7] as number) + watch;
    t[k + 8] = (t[k + 8] as number) + num('segments');
    t[k + 9] = Boolean(t[k + 9]) || Boolean(r[at['final']!]);
  }
  return [...per.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, row]) => row);
}

/**
 * INSERT … ON CONFLICT DO UPDATE of rows from sessionTotalRows, $1… parameters (DuckDB and
 * PostgreSQL alike): a new session gets its row, a stored one keeps its labels and adds the totals.
 */
export function sessionUpsertSql(rows: readonly (readonly SqlValue[])[]): { sql: string; params: SqlValue[] } {
  const params: SqlValue[] = [];
  const values = rows.map((r) => `(${r.map((v) => `$${params.push(v)}`).join(', ')})`);
  const set = SESSION_TOTAL_COLUMNS.map(([c]) => `${c} = ${MERGE[c]}`).join(', ');
  return {
    sql: `INSERT INTO sessions (${SESSION_UPSERT_COLUMNS.join(', ')}) VALUES ${values.join(', ')} ON CONFLICT (session_id) DO UPDATE SET ${set}`,
    params,
  };
}
