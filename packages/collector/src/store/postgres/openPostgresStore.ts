import pg from 'pg';
import type { ValidBatch } from '../../beacon/ValidBatch.js';
import { CollectorError } from '../../errors/CollectorError.js';
import { LATEST_SCHEMA, MIGRATIONS, SCHEMA_TABLE, migrationStatements } from '../migrations.js';
import type { Row, SqlValue, Store } from '../Store.js';
import { SESSION_UPSERT_COLUMNS, sessionTotalRows, sessionUpsertSql } from '../sessionTotals.js';
import { BATCH_TABLE, CHILD_TABLES, EDGE_SESSION_COLUMNS, edgeSessionRow, type TableSpec } from '../tables.js';
import type { EdgeFactRow } from '../../beacon/parseEdgeReport.js';
import { toRow } from '../toRow.js';

/** PostgreSQL allows 65 535 parameters in one statement; stay well under. */
const MAX_PARAMS = 30_000;
/** Any constant: the advisory lock that keeps two collectors from migrating one database at once. */
const MIGRATION_LOCK = 4_021_740;

// Numbers as numbers: COUNT and SUM of integers are int8 (bigint) and NUMERIC, which pg returns as
// strings; the counts the collector reads stay far below 2^53.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * The fleet store: the same tables and queries as DuckDB's, on a PostgreSQL server that many
 * collectors (one per region, behind a load balancer) share. Each group of batches is one
 * transaction: `INSERT … ON CONFLICT DO NOTHING RETURNING` on `batches` says which are new, and
 * only their rows are inserted, as multi-row INSERTs, and only they are added to their sessions'
 * totals (sessionTotals.ts).
 */
export async function openPostgresStore(url: string, poolSize: number): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types });
  // An idle client's error (the server restarted) must not end the process: the pool replaces it.
  pool.on('error', () => undefined);
  try {
    const c = await pool.connect();
    try {
      await migrate(c);
    } finally {
      c.release();
    }
  } catch (e) {
    await pool.end().catch(() => undefined);
    if (e instanceof CollectorError) throw e;
    throw new CollectorError(
      'COLLECTOR_ERR_OPEN',
      `cannot reach PostgreSQL at ${redact(url)}: ${String((e as Error)?.message ?? e)}`,
      {},
      { cause: e },
    );
  }
  let closed = false;
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  };

  async function writeBatches(batches: readonly ValidBatch[]): Promise<boolean[]> {
    if (closed) throw new CollectorError('COLLECTOR_ERR_CLOSING', 'the store is closed');
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      // Duplicates within the group: the first copy counts.
      const unique = new Map<string, ValidBatch>();
      for (const b of batches) if (!unique.has(key(b))) unique.set(key(b), b);
      const stored = new Set<string>();
      for (const chunk of chunks([...unique.values()], BATCH_TABLE)) {
        const { sql, params } = insertSql(
          BATCH_TABLE,
          chunk.flatMap((b) => BATCH_TABLE.rows(b)),
          ' ON CONFLICT DO NOTHING RETURNING session_id, seq',
        );
        const r = await c.query<{ session_id: string; seq: number }>(sql, params);
        for (const row of r.rows) stored.add(`${row.seq}\u0000${row.session_id}`);
      }
      const fresh = [...unique.values()].filter((b) => stored.has(key(b)));
      // Each session's row, new or with the fresh batches added to its totals (in session order:
      // two collectors upserting the same sessions take the row locks in one order, no deadlock).
      const totals = sessionTotalRows(fresh);
      const perStatement = Math.max(1, Math.floor(MAX_PARAMS / SESSION_UPSERT_COLUMNS.length));
      for (let i = 0; i < totals.length; i += perStatement) {
        const { sql, params } = sessionUpsertSql(totals.slice(i, i + perStatement));
        await c.query(sql, params);
      }
      for (const t of CHILD_TABLES) {
        const rows = fresh.flatMap((b) => t.rows(b));
        for (let i = 0; i < rows.length;) {
          const n = Math.max(1, Math.floor(MAX_PARAMS / t.columns.length));
          const { sql, params } = insertSql(t, rows.slice(i, i + n), '');
          await c.query(sql, params);
          i += n;
        }
      }
      await c.query('COMMIT');
      const seen = new Set<string>();
      return batches.map((b) => {
        const k = key(b);
        const isNew = stored.has(k) && !seen.has(k);
        seen.add(k);
        return isNew;
      });
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw new CollectorError('COLLECTOR_ERR_STORE', `PostgreSQL write failed: ${String((e as Error)?.message ?? e)}`, {}, { cause: e });
    } finally {
      c.release();
    }
  }

  async function writeEdgeFacts(rows: readonly EdgeFactRow[]): Promise<void> {
    if (closed) throw new CollectorError('COLLECTOR_ERR_CLOSING', 'the store is closed');
    const spec: TableSpec = { name: 'edge_sessions', columns: EDGE_SESSION_COLUMNS, rows: () => [] };
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      const n = Math.max(1, Math.floor(MAX_PARAMS / spec.columns.length));
      for (let i = 0; i < rows.length; i += n) {
        const { sql, params } = insertSql(spec, rows.slice(i, i + n).map(edgeSessionRow), '');
        await c.query(sql, params);
      }
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw new CollectorError('COLLECTOR_ERR_STORE', `PostgreSQL write failed: ${String((e as Error)?.message ?? e)}`, {}, { cause: e });
    } finally {
      c.release();
    }
  }

  return {
    kind: 'postgres',
    writeBatches: (b) => track(writeBatches(b)),
    writeEdgeFacts: (r) => track(writeEdgeFacts(r)),
    all(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
      if (closed) return Promise.reject(new CollectorError('COLLECTOR_ERR_CLOSING', 'the store is closed'));
      return track(
        pool.query(sql, params as unknown[]).then(
          (r) => r.rows.map((o: Record<string, unknown>) => toRow(o)),
          (e: unknown) => {
            throw new CollectorError(
              'COLLECTOR_ERR_STORE',
              `PostgreSQL query failed: ${String((e as Error)?.message ?? e)}`,
              {},
              { cause: e },
            );
          },
        ),
      );
    },
    async schemaVersion() {
      const r = await pool.query<{ v: number }>('SELECT max(version) AS v FROM schema_migrations');
      return Number(r.rows[0]?.v ?? 0);
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...inFlight]);
      await pool.end();
    },
  };
}

const key = (b: ValidBatch) => `${b.seq}\u0000${b.session}`;

function* chunks(items: ValidBatch[], t: TableSpec): Generator<ValidBatch[]> {
  const n = Math.max(1, Math.floor(MAX_PARAMS / t.columns.length));
  for (let i = 0; i < items.length; i += n) yield items.slice(i, i + n);
}

function insertSql(t: TableSpec, rows: readonly (readonly SqlValue[])[], suffix: string): { sql: string; params: SqlValue[] } {
  const params: SqlValue[] = [];
  const values = rows.map((r) => `(${r.map((v) => `$${params.push(v)}`).join(', ')})`);
  return { sql: `INSERT INTO ${t.name} (${t.columns.map(([n]) => n).join(', ')}) VALUES ${values.join(', ')}${suffix}`, params };
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the given URL';
  }
}

async function migrate(c: pg.PoolClient): Promise<void> {
  await c.query('BEGIN');
  try {
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await c.query(SCHEMA_TABLE);
    const applied = new Set(
      (await c.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => Number(r.version)),
    );
    const newest = Math.max(0, ...applied);
    if (newest > LATEST_SCHEMA)
      throw new CollectorError(
        'COLLECTOR_ERR_MIGRATION',
        `the database is at schema ${newest}; this collector knows up to ${LATEST_SCHEMA}: upgrade the collector`,
        { newest },
      );
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      try {
        for (const sql of migrationStatements(m, 'postgres')) await c.query(sql);
        await c.query('INSERT INTO schema_migrations VALUES ($1, $2, $3)', [m.version, m.name, Date.now()]);
      } catch (e) {
        throw new CollectorError(
          'COLLECTOR_ERR_MIGRATION',
          `migration ${m.version} (${m.name}) failed: ${String((e as Error)?.message ?? e)}`,
          { version: m.version },
          { cause: e },
        );
      }
    }
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
