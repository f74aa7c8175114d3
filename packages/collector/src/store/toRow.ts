import type { Row } from './Store.js';

/**
 * A database value as the query API returns it: bigint (COUNT, SUM of integers) as a number; a
 * list (several percentiles in one aggregate) as JSON text of its numbers, which listOf reads.
 */
export function toPlain(v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  // DuckDB DECIMAL and PostgreSQL NUMERIC arrive as objects or strings: as numbers where they are.
  const n = Number(String(v));
  return Number.isFinite(n) ? n : String(v);
}

export function toRow(o: Record<string, unknown>): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(o)) out[k] = Array.isArray(v) ? (JSON.stringify(v.map(toPlain)) as string) : toPlain(v);
  return out;
}

/** A list column (toRow's JSON text) as numbers; null when the aggregate had no rows. */
export function listOf(v: unknown): (number | null)[] | null {
  if (v === null || v === undefined) return null;
  const a = JSON.parse(String(v)) as unknown;
  return Array.isArray(a) ? a.map((x) => (x === null ? null : Number(x))) : null;
}
