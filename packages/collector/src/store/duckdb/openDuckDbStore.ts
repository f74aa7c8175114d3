import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import type { ValidBatch } from '../../beacon/ValidBatch.js';
import { CollectorError } from '../../errors/CollectorError.js';
import { LATEST_SCHEMA, MIGRATIONS, SCHEMA_TABLE, migrationStatements } from '../migrations.js';
import type { Row, SqlValue, Store } from '../Store.js';
import { sessionTotalRows, sessionUpsertSql } from '../sessionTotals.js';
import { BATCH_TABLE, CHILD_TABLES, EDGE_SESSION_COLUMNS, edgeSessionRow, type TableSpec } from '../tables.js';
import type { EdgeFactRow } from '../../beacon/parseEdgeReport.js';
import { toRow } from '../toRow.js';

/**
 * Reader connections: the dashboard's requests (the fleet view's three statements, the session
 * list, the filter choices) run side by side on them instead of queuing on one. More buys little
 * on a few cores: DuckDB already spreads each statement over its threads.
 */
const READERS = 4;

/**
 * The embedded store: one DuckDB file (or ':memory:'). One connection writes (the group writer
 * calls writeBatches one at a time), READERS others read, so a fleet query never waits for a
 * commit and sees only committed batches. A batch's rows go in through DuckDB's appender, inside
 * the transaction (an appender's rows roll back with it): an INSERT statement cost ~0.4 ms per
 * row, and INSERT … ON CONFLICT DO NOTHING ~3 ms, measured with @duckdb/node-api 1.5.6. The
 * sessions' rows (new, or their totals added to) are one INSERT … ON CONFLICT DO UPDATE per
 * transaction, whatever the number of batches in it.
 *
 * A transaction's cost is mostly fixed (a flush per table, the commit: ~8 ms of CPU for 1 batch,
 * ~0.3 ms more per batch), which is why the group writer batches them and the appenders stay open
 * across transactions (creating and closing 7 per transaction cost ~4 ms more).
 */
export async function openDuckDbStore(path: string): Promise<Store> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  let instance: DuckDBInstance;
  try {
    // DuckDB sizes its thread pool by the machine's cores, not by the CPUs this process may run
    // on (taskset, a cgroup cpuset); with more threads than those, a commit cost twice the CPU
    // (4.7 ms instead of 2.3 ms on one core) in threads waiting on each other.
    instance = await DuckDBInstance.create(path, { threads: String(availableParallelism()) });
  } catch (e) {
    const message = String((e as Error)?.message ?? e);
    const locked = /lock/i.test(message);
    throw new CollectorError(
      'COLLECTOR_ERR_OPEN',
      locked
        ? `${path} is open in another process (DuckDB allows one writer): stop it or use another file`
        : `cannot open ${path}: ${message.split('\n')[0]}`,
      { path },
      { cause: e },
    );
  }
  const writer = await instance.connect();
  const readers: DuckDBConnection[] = [];
  for (let i = 0; i < READERS; i++) readers.push(await instance.connect());
  try {
    await migrate(writer);
  } catch (e) {
    writer.closeSync();
    for (const r of readers) r.closeSync();
    instance.closeSync();
    throw e;
  }
  const batchExists = await writer.prepare('SELECT 1 AS x FROM batches WHERE session_id = $1 AND seq = $2');
  let closed = false;
  let writing: Promise<unknown> = Promise.resolve();
  /** Queries running on the readers, which close() waits for. */
  const reading = new Set<Promise<unknown>>();
  /**
   * Idle readers, and queries waiting for one (first come, first served). The wait is bounded by
   * the queries asked at once: one per HTTP request the server is answering.
   */
  const idle = [...readers];
  const waiting: ((c: DuckDBConnection) => void)[] = [];
  const acquire = (): Promise<DuckDBConnection> | DuckDBConnection => idle.pop() ?? new Promise((r) => waiting.push(r));
  const release = (c: DuckDBConnection) => {
    const next = waiting.shift();
    if (next) next(c);
    else idle.push(c);
  };

  const has = async (p: typeof batchExists, values: DuckDBValue[]) => {
    p.bind(values);
    return (await p.runAndReadAll()).currentRowCount > 0;
  };

  /**
   * The writer's appenders, one per table, open across transactions: each transaction flushes
   * those it used before its COMMIT. After an error they are dropped (their rows cleared first:
   * closing an appender flushes it, and after a failed flush the transaction is gone, so those
   * rows would be committed on their own) and made anew.
   */
  const appenders = new Map<string, DuckDBAppender>();
  const appenderFor = async (table: string): Promise<DuckDBAppender> => {
    let a = appenders.get(table);
    if (a === undefined) {
      a = await writer.createAppender(table);
      appenders.set(table, a);
    }
    return a;
  };
  const dropAppenders = () => {
    for (const a of appenders.values()) {
      try {
        a.clear();
        a.closeSync();
      } catch {
        // nothing left in it to flush
      }
    }
    appenders.clear();
  };

  /** Runs `fill` in one transaction and flushes the appenders it used before the COMMIT; on an error, nothing of it stays. */
  async function inTransaction<T>(fill: (use: (table: string) => Promise<DuckDBAppender>) => Promise<T>): Promise<T> {
    const used = new Set<DuckDBAppender>();
    await writer.run('BEGIN TRANSACTION');
    try {
      const out = await fill(async (table) => {
        const a = await appenderFor(table);
        used.add(a);
        return a;
      });
      for (const a of used) a.flushSync(); // into the transaction
      await writer.run('COMMIT');
      return out;
    } catch (e) {
      dropAppenders();
      await writer.run('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  /**
   * One transaction for the group. No lookup per batch: a resent batch is rare, and the primary
   * key on batches refuses it (the whole group rolls back, and writeBatches sorts it out).
   */
  async function writeGroup(batches: readonly ValidBatch[], skip: ReadonlySet<number>): Promise<boolean[]> {
    const fresh: boolean[] = [];
    const seen = new Set<string>();
    const written: ValidBatch[] = [];
    await inTransaction(async (use) => {
      const rows = async (t: TableSpec, b: ValidBatch) => {
        const a = await use(t.name);
        for (const row of t.rows(b)) appendRow(a, t, row);
      };
      for (const [i, b] of batches.entries()) {
        const key = `${b.seq}\u0000${b.session}`;
        const dup = skip.has(i) || seen.has(key);
        fresh.push(!dup);
        if (dup) continue;
        seen.add(key);
        written.push(b);
        await rows(BATCH_TABLE, b);
        for (const t of CHILD_TABLES) await rows(t, b);
      }
      // Each session's row, new or with these batches added to its totals: one statement. If a
      // batch turns out stored before (the appender's flush meets the primary key), all of it
      // rolls back with the transaction and writeBatches writes the group again without it.
      if (written.length > 0) {
        const { sql, params } = sessionUpsertSql(sessionTotalRows(written));
        await writer.run(sql, params as DuckDBValue[]);
      }
    });
    return fresh;
  }

  async function writeBatches(batches: readonly ValidBatch[]): Promise<boolean[]> {
    if (closed) throw new CollectorError('COLLECTOR_ERR_CLOSING', 'the store is closed');
    const run = async () => {
      try {
        try {
          return await writeGroup(batches, new Set());
        } catch (e) {
          if (!/constraint|duplicate key/i.test(String((e as Error)?.message))) throw e;
          // Some batch was stored before (a resend): look each up, write the others.
          const skip = new Set<number>();
          for (const [i, b] of batches.entries()) if (await has(batchExists, [b.session, b.seq])) skip.add(i);
          return await writeGroup(batches, skip);
        }
      } catch (e) {
        throw new CollectorError(
          'COLLECTOR_ERR_STORE',
          `DuckDB write failed: ${String((e as Error)?.message ?? e).split('\n')[0]}`,
          {},
          { cause: e },
        );
      }
    };
    const p = writing.then(run, run);
    writing = p.catch(() => undefined);
    return p;
  }

  /** On the writer's chain too: one writing transaction at a time. */
  function writeEdgeFacts(rows: readonly EdgeFactRow[]): Promise<void> {
    if (closed) return Promise.reject(new CollectorError('COLLECTOR_ERR_CLOSING', 'the store is closed'));
    const run = async () => {
      const spec: TableSpec = { name: 'edge_sessions', columns: EDGE_SESSION_COLUMNS, rows: () => [] };
      try {
        await inTransaction(async (use) => {
          const a = await use(spec.name);
          for (const r of rows) appendRow(a, spec, edgeSessionRow(r));
        });
      } catch (e) {
        throw new CollectorError(
          'COLLECTOR_ERR_STORE',
          `DuckDB write failed: ${String((e as Error)?.message ?? e).split('\n')[0]}`,
          {},
          { cause: e },
        );
      }
    };
    const p = writing.then(run, run);
    writing = p.catch(() => undefined);
    return p;
  }

  return {
    kind: 'duckdb',
    writeBatches,
    writeEdgeFacts,
    async all(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
      if (closed) throw new CollectorError('COLLECTOR_ERR_CLOSING', 'the store is closed');
      const run = (async () => {
        const c = await acquire();
        try {
          return await c.runAndReadAll(sql, params as DuckDBValue[]);
        } finally {
          release(c);
        }
      })();
      reading.add(run);
      try {
        const r = await run;
        return r.getRowObjectsJS().map(toRow);
      } catch (e) {
        throw new CollectorError(
          'COLLECTOR_ERR_STORE',
          `DuckDB query failed: ${String((e as Error)?.message ?? e).split('\n')[0]}`,
          {},
          { cause: e },
        );
      } finally {
        reading.delete(run);
      }
    },
    async schemaVersion() {
      const c = await acquire();
      try {
        const r = await c.runAndReadAll('SELECT max(version) AS v FROM schema_migrations');
        return Number(r.getRowObjectsJS()[0]?.['v'] ?? 0);
      } finally {
        release(c);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await writing;
      // Queries that started finish first: none runs on a closed connection.
      await Promise.allSettled([...reading]);
      for (const a of appenders.values()) a.closeSync(); // empty: each transaction flushed its own
      appenders.clear();
      // A checkpoint folds the WAL into the file, so the next open replays nothing.
      await writer.run('CHECKPOINT').catch(() => undefined);
      batchExists.destroySync();
      writer.closeSync();
      for (const r of readers) r.closeSync();
      instance.closeSync();
    },
  };
}

function appendRow(a: DuckDBAppender, t: TableSpec, row: readonly SqlValue[]): void {
  t.columns.forEach(([, kind], i) => {
    const v = row[i];
    if (v === null || v === undefined) a.appendNull();
    else if (kind === 'text') a.appendVarchar(String(v));
    else if (kind === 'int') a.appendInteger(Number(v));
    else if (kind === 'double') a.appendDouble(Number(v));
    else a.appendBoolean(Boolean(v));
  });
  a.endRow();
}

async function migrate(c: DuckDBConnection): Promise<void> {
  await c.run(SCHEMA_TABLE);
  const applied = new Set(
    (await c.runAndReadAll('SELECT version FROM schema_migrations')).getRowObjectsJS().map((r) => Number(r['version'])),
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
    await c.run('BEGIN TRANSACTION');
    try {
      for (const sql of migrationStatements(m, 'duckdb')) await c.run(sql);
      await c.run('INSERT INTO schema_migrations VALUES ($1, $2, $3)', [m.version, m.name, Date.now()]);
      await c.run('COMMIT');
    } catch (e) {
      await c.run('ROLLBACK').catch(() => undefined);
      throw new CollectorError(
        'COLLECTOR_ERR_MIGRATION',
        `migration ${m.version} (${m.name}) failed: ${String((e as Error)?.message ?? e).split('\n')[0]}`,
        { version: m.version },
        { cause: e },
      );
    }
  }
}
