import { CollectorError } from '../errors/CollectorError.js';
import { DEFAULT_LIMITS, type CollectorConfig, type CollectorLimits, type StoreConfig } from './CollectorConfig.js';

export interface CollectorConfigInput {
  host?: string;
  port?: number;
  /** A DuckDB file path (':memory:' for none), or { postgres: url }. Default ':memory:'. */
  store?: { duckdb: string } | { postgres: string; poolSize?: number };
  corsOrigins?: '*' | readonly string[];
  limits?: Partial<CollectorLimits>;
}

const fail = (message: string, option: string) => new CollectorError('COLLECTOR_ERR_CONFIG', message, { option });

function whole(name: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw fail(`${name} must be a whole number ${min}..${max}, got ${JSON.stringify(v)}`, name);
  return v;
}

/** Validates once and fills the defaults; a bad option throws COLLECTOR_ERR_CONFIG naming it. */
export function createCollectorConfig(input: CollectorConfigInput = {}): CollectorConfig {
  const host = input.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host.trim() === '') throw fail('host must be a non-empty string', 'host');
  const port = whole('port', input.port ?? 8082, 0, 65535);
  let store: StoreConfig;
  const s = input.store ?? { duckdb: ':memory:' };
  if ('postgres' in s) {
    if (typeof s.postgres !== 'string' || !/^postgres(ql)?:\/\//.test(s.postgres))
      throw fail(`store.postgres must be a postgres:// URL, got ${JSON.stringify(s.postgres)}`, 'store.postgres');
    store = { kind: 'postgres', url: s.postgres, poolSize: whole('store.poolSize', s.poolSize ?? 4, 1, 64) };
  } else if ('duckdb' in s) {
    if (typeof s.duckdb !== 'string' || s.duckdb === '') throw fail('store.duckdb must be a file path or ":memory:"', 'store.duckdb');
    store = { kind: 'duckdb', path: s.duckdb };
  } else throw fail('store must be { duckdb: path } or { postgres: url }', 'store');
  const cors = input.corsOrigins ?? '*';
  if (cors !== '*') {
    if (!Array.isArray(cors) || cors.length === 0) throw fail('corsOrigins must be "*" or a non-empty list of origins', 'corsOrigins');
    for (const o of cors) {
      let origin = '';
      try {
        origin = new URL(o).origin;
      } catch {
        // reported below
      }
      if (origin !== o) throw fail(`corsOrigins: ${JSON.stringify(o)} is not an origin (scheme://host[:port], no path)`, 'corsOrigins');
    }
  }
  const l = { ...DEFAULT_LIMITS, ...input.limits };
  for (const k of Object.keys(input.limits ?? {}))
    if (!(k in DEFAULT_LIMITS)) throw fail(`limits.${k} is not a limit (${Object.keys(DEFAULT_LIMITS).join(', ')})`, `limits.${k}`);
  const limits: CollectorLimits = {
    maxBodyBytes: whole('limits.maxBodyBytes', l.maxBodyBytes, 1024, 64 * 1024 * 1024),
    maxEventsPerBatch: whole('limits.maxEventsPerBatch', l.maxEventsPerBatch, 1, 100_000),
    maxEventBytes: whole('limits.maxEventBytes', l.maxEventBytes, 256, 1024 * 1024),
    maxBatchesPerSession: whole('limits.maxBatchesPerSession', l.maxBatchesPerSession, 1, 10_000_000),
    maxPendingBatches: whole('limits.maxPendingBatches', l.maxPendingBatches, 1, 10_000_000),
    maxBatchesPerTransaction: whole('limits.maxBatchesPerTransaction', l.maxBatchesPerTransaction, 1, 100_000),
    minTransactionIntervalMs: whole('limits.minTransactionIntervalMs', l.minTransactionIntervalMs, 0, 10_000),
    maxSessionsListed: whole('limits.maxSessionsListed', l.maxSessionsListed, 1, 100_000),
  };
  return { host, port, store, corsOrigins: cors === '*' ? '*' : [...cors], limits };
}
