import type { EdgeFactRow } from '../beacon/parseEdgeReport.js';
import type { ValidBatch } from '../beacon/ValidBatch.js';

export type SqlValue = string | number | boolean | null;
export type Row = Record<string, string | number | boolean | null>;

/**
 * What the collector needs of a database: DuckDB embedded (the default) and PostgreSQL (a fleet's
 * server) implement it alike, so the HTTP layer and the queries (portable SQL, `$1`… parameters)
 * do not know which one they talk to.
 */
export interface Store {
  readonly kind: 'duckdb' | 'postgres';
  /**
   * Writes the batches in ONE transaction (a group commit: each batch is whole in it) and returns,
   * per batch, true if it was stored or false if its (session, seq) was stored before — a
   * duplicate, of which nothing is written again. On an error nothing of any of them is stored.
   */
  writeBatches(batches: readonly ValidBatch[]): Promise<boolean[]>;
  /** Appends an edge's report of its sessions, in one transaction. */
  writeEdgeFacts(rows: readonly EdgeFactRow[]): Promise<void>;
  /** A read-only query: rows as plain objects (numbers as JS numbers, never bigint). */
  all(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** The newest migration applied. */
  schemaVersion(): Promise<number>;
  /** Waits for what is running, then closes; idempotent. */
  close(): Promise<void>;
}
