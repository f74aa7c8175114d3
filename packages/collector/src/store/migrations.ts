import { SESSION_TOTAL_COLUMNS, SESSION_TOTALS_BACKFILL } from './sessionTotals.js';

/**
 * The schema, as numbered migrations applied in order, each in its own transaction with its row in
 * `schema_migrations`. Never edit an applied one: add the next number. The SQL is portable between
 * DuckDB and PostgreSQL (DOUBLE PRECISION, TEXT, INTEGER, BOOLEAN); what differs is in `postgres`
 * or `duckdb` — indexes: PostgreSQL needs them to find one session's rows among millions, DuckDB
 * scans columns with zone maps and its ART indexes would only slow every insert.
 *
 * Times are epoch milliseconds as DOUBLE PRECISION: `*_ms` on the probe's clock, `received_ms` on
 * the collector's (the fleet views bucket by it, so a wrong client clock moves nothing in time).
 */
export interface Migration {
  version: number;
  name: string;
  common: readonly string[];
  postgres?: readonly string[];
  duckdb?: readonly string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions, batches, events, segments, stalls, latency, reports',
    common: [
      `CREATE TABLE sessions (
        session_id TEXT PRIMARY KEY,
        first_received_ms DOUBLE PRECISION NOT NULL,
        target TEXT NOT NULL,
        player TEXT NOT NULL,
        stream TEXT NOT NULL,
        scheme TEXT NOT NULL,
        edge TEXT NOT NULL,
        meta TEXT NOT NULL
      )`,
      // One row per batch: the dedupe key (session_id, seq) and the batch's partial sums, which the
      // fleet views add up per session without reading the events.
      `CREATE TABLE batches (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        received_ms DOUBLE PRECISION NOT NULL,
        sent_ms DOUBLE PRECISION NOT NULL,
        first_at_ms DOUBLE PRECISION NOT NULL,
        events INTEGER NOT NULL,
        startup_ms DOUBLE PRECISION,
        stall_count INTEGER NOT NULL,
        stall_ms DOUBLE PRECISION NOT NULL,
        segments INTEGER NOT NULL,
        segment_bytes DOUBLE PRECISION NOT NULL,
        final BOOLEAN NOT NULL,
        PRIMARY KEY (session_id, seq)
      )`,
      `CREATE TABLE events (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        type TEXT NOT NULL,
        at_ms DOUBLE PRECISION NOT NULL,
        data TEXT NOT NULL
      )`,
      `CREATE TABLE segments (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        url TEXT NOT NULL,
        track TEXT NOT NULL,
        request_ms DOUBLE PRECISION NOT NULL,
        first_byte_ms DOUBLE PRECISION NOT NULL,
        last_byte_ms DOUBLE PRECISION NOT NULL,
        bytes DOUBLE PRECISION NOT NULL,
        throughput_bps DOUBLE PRECISION NOT NULL,
        transfer_bps DOUBLE PRECISION NOT NULL,
        duration_s DOUBLE PRECISION NOT NULL,
        rendition TEXT NOT NULL,
        connection TEXT
      )`,
      `CREATE TABLE stalls (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        received_ms DOUBLE PRECISION NOT NULL,
        start_ms DOUBLE PRECISION NOT NULL,
        end_ms DOUBLE PRECISION NOT NULL,
        duration_ms DOUBLE PRECISION NOT NULL,
        interrupted_by TEXT
      )`,
      `CREATE TABLE latency (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        received_ms DOUBLE PRECISION NOT NULL,
        at_ms DOUBLE PRECISION NOT NULL,
        true_latency_s DOUBLE PRECISION,
        edge_distance_s DOUBLE PRECISION,
        hold_s DOUBLE PRECISION NOT NULL
      )`,
      `CREATE TABLE reports (
        session_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        received_ms DOUBLE PRECISION NOT NULL,
        report TEXT NOT NULL
      )`,
    ],
    postgres: [
      'CREATE INDEX batches_received ON batches (received_ms)',
      'CREATE INDEX sessions_first_received ON sessions (first_received_ms)',
      'CREATE INDEX events_session ON events (session_id, at_ms)',
      'CREATE INDEX segments_session ON segments (session_id, request_ms)',
      'CREATE INDEX stalls_session ON stalls (session_id)',
      'CREATE INDEX latency_session ON latency (session_id, at_ms)',
      'CREATE INDEX latency_received ON latency (received_ms)',
      'CREATE INDEX stalls_received ON stalls (received_ms)',
      'CREATE INDEX reports_session ON reports (session_id)',
    ],
  },
  {
    version: 2,
    name: 'edge_sessions: what an edge did for each session',
    common: [
      // Append-only snapshots (an edge reports a session's running counts every few seconds): a
      // session's view takes each (edge, stream)'s newest. session_id is the CMCD sid the player
      // sent the edge, the probe's session id.
      `CREATE TABLE edge_sessions (
        edge TEXT NOT NULL,
        session_id TEXT NOT NULL,
        stream TEXT NOT NULL,
        received_ms DOUBLE PRECISION NOT NULL,
        hold INTEGER NOT NULL,
        policy_group TEXT,
        redirect_location TEXT,
        manifests INTEGER NOT NULL,
        hits INTEGER NOT NULL,
        coalesced INTEGER NOT NULL,
        misses INTEGER NOT NULL,
        first_at_ms DOUBLE PRECISION NOT NULL,
        last_at_ms DOUBLE PRECISION NOT NULL
      )`,
    ],
    postgres: ['CREATE INDEX edge_sessions_session ON edge_sessions (session_id, received_ms)'],
  },
  {
    version: 3,
    name: 'batches.watch_ms: time watched, worked out at ingest',
    // Earlier rows keep NULL; the queries take sent_ms − first_at_ms for them.
    common: ['ALTER TABLE batches ADD COLUMN watch_ms DOUBLE PRECISION'],
  },
  {
    version: 4,
    name: "sessions' totals over their batches, kept at ingest",
    // The fleet view and the session list read one row per session instead of every batch (36 per
    // 3-minute session); the stores add each transaction's fresh batches to them (sessionTotals.ts).
    // Nullable: an existing session gets its totals from the backfill below.
    common: [...SESSION_TOTAL_COLUMNS.map(([name, type]) => `ALTER TABLE sessions ADD COLUMN ${name} ${type}`), SESSION_TOTALS_BACKFILL],
  },
];

export const SCHEMA_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_ms DOUBLE PRECISION NOT NULL
)`;

export const LATEST_SCHEMA = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The statements of one migration for one database, in order. */
export function migrationStatements(m: Migration, kind: 'duckdb' | 'postgres'): string[] {
  return [...m.common, ...((kind === 'postgres' ? m.postgres : m.duckdb) ?? [])];
}
