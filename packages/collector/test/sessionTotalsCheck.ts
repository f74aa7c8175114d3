import { expect } from 'vitest';
import { parseBatch } from '../src/beacon/parseBatch.js';
import { DEFAULT_LIMITS } from '../src/config/CollectorConfig.js';
import { BUCKETS, dimensionWhere, groupExpr, Params, type FleetFilter } from '../src/query/FleetFilter.js';
import { fleetQuery } from '../src/query/fleetQuery.js';
import { sessionsQuery } from '../src/query/sessionsQuery.js';
import { MIGRATIONS, SCHEMA_TABLE, migrationStatements } from '../src/store/migrations.js';
import { SESSION_TOTAL_COLUMNS, SESSION_TOTALS_SELECT } from '../src/store/sessionTotals.js';
import type { SqlValue, Store } from '../src/store/Store.js';
import { listOf } from '../src/store/toRow.js';
import { BATCH_TABLE, CHILD_TABLES, SESSION_TABLE, type TableSpec } from '../src/store/tables.js';
import { batch, ev, type BatchInput } from './fixtures.js';

/**
 * Each session's kept totals (sessions' columns, kept at ingest or by the migration) against what
 * a full scan of its batches computes: the differences, as "session column: kept vs scanned".
 */
export async function totalsMismatches(store: Store): Promise<string[]> {
  const cols = SESSION_TOTAL_COLUMNS.map(([c]) => c);
  const kept = await store.all(`SELECT session_id, ${cols.join(', ')} FROM sessions ORDER BY session_id`);
  const scanned = new Map((await store.all(`${SESSION_TOTALS_SELECT} ORDER BY session_id`)).map((r) => [String(r['session_id']), r]));
  expect(scanned.size).toBeGreaterThan(0);
  const out: string[] = [];
  for (const k of kept) {
    const id = String(k['session_id']);
    const s = scanned.get(id);
    if (s === undefined) {
      out.push(`${id}: a session row without batches`);
      continue;
    }
    scanned.delete(id);
    for (const c of cols) {
      const a = k[c] ?? null;
      const b = s[c] ?? null;
      // Sums of doubles in another order may differ in the last bits.
      const same = typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)) : a === b;
      if (!same) out.push(`${id} ${c}: kept ${String(a)} vs scanned ${String(b)}`);
    }
  }
  for (const id of scanned.keys()) out.push(`${id}: batches without a session row`);
  return out;
}

const T = 1_700_000_000_000;

/**
 * A database as a schema-3 collector left it (migrations 1–3, sessions without totals), with two
 * sessions' batches, one of them from before migration 3 (watch_ms NULL). `exec` runs one statement
 * with $n parameters.
 */
export async function seedSchema3(exec: (sql: string, params?: SqlValue[]) => Promise<void>, kind: 'duckdb' | 'postgres'): Promise<void> {
  await exec(SCHEMA_TABLE);
  for (const m of MIGRATIONS.filter((x) => x.version <= 3)) {
    for (const sql of migrationStatements(m, kind)) await exec(sql);
    await exec('INSERT INTO schema_migrations VALUES ($1, $2, $3)', [m.version, m.name, T]);
  }
  const insert = async (t: TableSpec, row: SqlValue[]) =>
    exec(`INSERT INTO ${t.name} (${t.columns.map(([c]) => c).join(', ')}) VALUES (${row.map((_, i) => `$${i + 1}`).join(', ')})`, row);
  for (const b of schema3Batches()) {
    if (b.seq === 0) for (const r of SESSION_TABLE.rows(b)) await insert(SESSION_TABLE, r);
    for (const r of BATCH_TABLE.rows(b)) await insert(BATCH_TABLE, r);
    for (const t of CHILD_TABLES) for (const r of t.rows(b)) await insert(t, r);
  }
}

/** The batches seedSchema3 stores: 'old-a' seq 0–2 (a stall, a final report), 'old-b' seq 0 and 2 (a gap). */
export function schema3Batches() {
  const make = (session: string, seq: number, events: NonNullable<BatchInput['events']>, watchMs: number | null, report = false) => {
    const b = parseBatch(
      JSON.stringify(
        batch({
          session,
          seq,
          sentAt: T + seq * 5000,
          meta: { scheme: 'hold-1' },
          events,
          ...(report ? { report: { startupMs: 700 } } : {}),
        }),
      ),
      T + seq * 5000 + 30,
      DEFAULT_LIMITS,
    );
    b.watchMs = watchMs;
    return b;
  };
  return [
    make('old-a', 0, [ev.startup(T - 300, 700), ev.latency(T - 200, 6)], null),
    make('old-a', 1, [ev.stall(T + 1000, 1200), ev.latency(T + 4000, 6.5)], 5000),
    make('old-a', 2, [ev.latency(T + 9000, 7)], 5000, true),
    make('old-b', 0, [ev.startup(T - 100, 1500)], null),
    make('old-b', 2, [ev.stall(T + 8000, 400)], 4000),
  ];
}

/** After the store opened a seedSchema3 database: the totals are the batches', the views read them, ingest adds to them. */
export async function expectMigratedFromSchema3(store: Store, latest: number): Promise<void> {
  expect(await store.schemaVersion()).toBe(latest);
  expect(await totalsMismatches(store)).toEqual([]);
  const [a] = await store.all(
    "SELECT batches, max_seq, startup_ms, stall_count, stall_ms, watch_ms, ended FROM sessions WHERE session_id = 'old-a'",
  );
  // seq 0 without watch_ms: sent − its first event (T − (T − 300)); then 5000 + 5000.
  expect(a).toMatchObject({ batches: 3, max_seq: 2, startup_ms: 700, stall_count: 1, stall_ms: 1200, watch_ms: 10_300, ended: true });
  // A batch a migrated collector stores adds to a migrated session's totals.
  const next = parseBatch(
    JSON.stringify(batch({ session: 'old-b', seq: 3, sentAt: T + 15_000, events: [ev.stall(T + 12_000, 600)] })),
    T + 15_030,
    DEFAULT_LIMITS,
  );
  next.watchMs = 5000;
  expect(await store.writeBatches([next])).toEqual([true]);
  expect(await totalsMismatches(store)).toEqual([]);
  const [b] = await store.all("SELECT batches, max_seq, stall_count, stall_ms, max_received_ms FROM sessions WHERE session_id = 'old-b'");
  expect(b).toMatchObject({ batches: 3, max_seq: 3, stall_count: 2, stall_ms: 1000, max_received_ms: T + 15_030 });
}

/**
 * The fleet view and the session list for `f`, against the same aggregates summed from every
 * batch in the range (the SQL before sessions kept totals): equal, whichever sessions the range
 * holds whole and whichever it cuts. Returns how many sessions the range holds.
 */
export async function expectSameAsFullScan(store: Store, f: FleetFilter): Promise<number> {
  /** One statement over the range's batches (CTE b), its parameters numbered from $1. */
  const overBatches = (body: (o: { dims: string; p: Params }) => string) => {
    const p = new Params();
    const cte = `WITH b AS (SELECT session_id, seq, received_ms, startup_ms, stall_count, stall_ms, segments, final,
        coalesce(watch_ms, greatest(0, sent_ms - first_at_ms)) AS watch_ms
      FROM batches WHERE received_ms >= ${p.add(f.fromMs)} AND received_ms < ${p.add(f.toMs)})`;
    const sql = `${cte} ${body({ dims: dimensionWhere(f, p), p })}`;
    return store.all(sql, p.values);
  };
  const groups = await overBatches(
    ({ dims }) => `, per AS (
      SELECT s.session_id, ${groupExpr(f)} AS grp, min(b.startup_ms) AS startup_ms, sum(b.stall_count) AS stalls, sum(b.stall_ms) AS stall_ms, sum(b.watch_ms) AS watch_ms
      FROM b JOIN sessions s ON s.session_id = b.session_id WHERE true${dims} GROUP BY s.session_id, grp)
    SELECT grp, count(*) AS sessions, percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY startup_ms) AS startup_ps, sum(stall_ms) AS stall_ms,
      sum(stalls) AS stalls, count(*) FILTER (WHERE stalls > 0) AS sessions_with_stalls, sum(watch_ms) / 3600000.0 AS watch_hours
    FROM per GROUP BY grp ORDER BY grp`,
  );
  const series = await overBatches(({ dims, p }) => {
    const bucket = p.add(BUCKETS[f.bucket]);
    return `SELECT floor(b.received_ms / ${bucket}) * ${bucket} AS t, ${groupExpr(f)} AS grp, count(DISTINCT b.session_id) AS sessions,
      sum(b.stall_count) AS stalls, sum(b.watch_ms) / 3600000.0 AS watch_hours
    FROM b JOIN sessions s ON s.session_id = b.session_id WHERE true${dims} GROUP BY t, grp ORDER BY t, grp`;
  });
  const list = await overBatches(
    ({
      dims,
    }) => `SELECT s.session_id, max(b.received_ms) AS last_received_ms, count(*) AS batches, max(b.seq) AS max_seq, min(b.startup_ms) AS startup_ms,
      sum(b.stall_count) AS stalls, sum(b.stall_ms) AS stall_ms, sum(b.segments) AS segments, bool_or(b.final) AS ended
    FROM b JOIN sessions s ON s.session_id = b.session_id WHERE true${dims}
    GROUP BY s.session_id ORDER BY last_received_ms DESC, s.session_id`,
  );
  const view = await fleetQuery(store, f);
  const close = (v: number) => expect.closeTo(v, 9);
  expect(
    view.groups.map((g) => ({
      grp: g.group,
      sessions: g.sessions,
      startup: [g.startupP50Ms, g.startupP95Ms],
      stalls: g.stalls,
      sessionsWithStalls: g.sessionsWithStalls,
      watchHours: g.watchHours,
      rebuffer: g.rebufferRatio === null ? null : g.rebufferRatio * g.watchHours,
    })),
  ).toEqual(
    groups.map((r) => ({
      grp: String(r['grp']),
      sessions: Number(r['sessions']),
      startup: (listOf(r['startup_ps']) ?? [null, null]).map((v) => (v === null ? null : close(v))),
      stalls: Number(r['stalls']),
      sessionsWithStalls: Number(r['sessions_with_stalls']),
      watchHours: close(Number(r['watch_hours'])),
      rebuffer: Number(r['watch_hours']) > 0 ? close(Number(r['stall_ms']) / 3_600_000) : null,
    })),
  );
  expect(view.series.map((s) => ({ t: s.t, grp: s.group, sessions: s.sessions, stalls: s.stalls, watchHours: s.watchHours }))).toEqual(
    series.map((r) => ({
      t: Number(r['t']),
      grp: String(r['grp']),
      sessions: Number(r['sessions']),
      stalls: Number(r['stalls']),
      watchHours: close(Number(r['watch_hours'])),
    })),
  );
  const listed = await sessionsQuery(store, f, 1000, 0);
  expect(
    listed.map((s) => [s.session, s.lastReceivedMs, s.batches, s.missingBatches, s.startupMs, s.stalls, s.stallMs, s.segments, s.ended]),
  ).toEqual(
    list.map((r) => [
      String(r['session_id']),
      Number(r['last_received_ms']),
      Number(r['batches']),
      Number(r['max_seq']) + 1 - Number(r['batches']),
      r['startup_ms'] === null ? null : Number(r['startup_ms']),
      Number(r['stalls']),
      close(Number(r['stall_ms'])),
      Number(r['segments']),
      Boolean(r['ended']),
    ]),
  );
  return list.length;
}
