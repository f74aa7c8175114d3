/** Bounds on what one sender can make the collector hold or do. */
export interface CollectorLimits {
  /** Largest request body, bytes (default 256 KiB; sendBeacon itself refuses more than 64 KiB). */
  maxBodyBytes: number;
  /** Events in one batch (default 1000; the probe sends at most its maxEvents, 100 by default). */
  maxEventsPerBatch: number;
  /** One event's data as JSON, bytes (default 16 KiB). */
  maxEventBytes: number;
  /** Batches per session: seq must stay below this (default 20 000: 55 h at the probe's 10 s). */
  maxBatchesPerSession: number;
  /** Batches waiting for the store before new ones are refused with 503 (default 20 000). */
  maxPendingBatches: number;
  /** Batches written in one transaction at most (default 500): a group commit, each batch whole. */
  maxBatchesPerTransaction: number;
  /**
   * A transaction starts at most this often, ms (default 20; 0: as soon as the previous one ends):
   * the batches that arrive meanwhile join it. Bounds the commits' CPU; adds at most this to a
   * beacon's answer.
   */
  minTransactionIntervalMs: number;
  /** Sessions one query may list (default 1000). */
  maxSessionsListed: number;
}

export type StoreConfig =
  /** DuckDB, embedded: one file (`path`), or ':memory:' for tests. */
  | { kind: 'duckdb'; path: string }
  /** PostgreSQL (a fleet's shared server): a connection URL, postgres://user@host:port/db. */
  | { kind: 'postgres'; url: string; poolSize: number };

export interface CollectorConfig {
  host: string;
  /** 0: any free port. */
  port: number;
  store: StoreConfig;
  /** Origins whose pages may send and read ('*': any, the default: beacons come from any player page). */
  corsOrigins: '*' | readonly string[];
  limits: CollectorLimits;
}

export const DEFAULT_LIMITS: CollectorLimits = {
  maxBodyBytes: 256 * 1024,
  maxEventsPerBatch: 1000,
  maxEventBytes: 16 * 1024,
  maxBatchesPerSession: 20_000,
  maxPendingBatches: 20_000,
  maxBatchesPerTransaction: 500,
  minTransactionIntervalMs: 20,
  maxSessionsListed: 1000,
};
