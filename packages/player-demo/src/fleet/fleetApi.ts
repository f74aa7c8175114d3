import type { FleetView, SessionDetail, SessionSummary } from '@ethle/collector';

export type { FleetView, SessionDetail, SessionSummary };

/** The fleet view's choices: a time range, a split, and equality filters (the collector's query parameters). */
export interface FleetChoice {
  /** Seconds back from now; 0: all time. */
  rangeS: number;
  by: 'none' | 'scheme' | 'edge' | 'player' | 'stream';
  filters: Partial<Record<'edge' | 'scheme' | 'player' | 'stream', string>>;
}

/** Bucket of the per-period series for a range: a point a minute up to 6 h, an hour up to a week. */
export function bucketFor(rangeS: number): 'minute' | 'hour' | 'day' {
  if (rangeS > 0 && rangeS <= 6 * 3600) return 'minute';
  if (rangeS > 0 && rangeS <= 7 * 86400) return 'hour';
  return 'day';
}

export function fleetParams(c: FleetChoice): URLSearchParams {
  const q = new URLSearchParams();
  if (c.rangeS > 0) q.set('from', `-${c.rangeS / 60}m`);
  q.set('by', c.by);
  q.set('bucket', bucketFor(c.rangeS));
  for (const [k, v] of Object.entries(c.filters)) if (v) q.set(k, v);
  return q;
}

/** GET a collector path; a failed request says which and why. */
export async function getJson<T>(base: string, path: string): Promise<T> {
  let r: Response;
  try {
    r = await fetch(`${base}${path}`);
  } catch {
    throw new Error(`no answer from the collector at ${base}: is it running?`);
  }
  const body = (await r.json().catch(() => null)) as (T & { error?: { code: string; message: string } }) | null;
  if (!r.ok) throw new Error(`${base}${path} answered ${r.status}${body?.error ? `: ${body.error.code}: ${body.error.message}` : ''}`);
  if (body === null) throw new Error(`${base}${path} is not JSON`);
  return body;
}
