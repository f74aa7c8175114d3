import type { RunResult } from './RunResult.js';

/**
 * One colour per scheme, the same in every chart and on the side-by-side page (direct = e2e red,
 * the edge's schemes green/blue/…). Unknown schemes get the remaining colours in a stable order.
 */
const FIXED: Record<string, string> = {
  e2e: '#d62728',
  auto: '#2ca02c',
  'hold-0': '#1f77b4',
  'hold-1': '#ff7f0e',
  'hold-2': '#9467bd',
  'hold-3': '#8c564b',
  'hold-4': '#17becf',
};
const SPARE = ['#e377c2', '#bcbd22', '#7f7f7f', '#393b79', '#637939', '#843c39'];

export function schemeColor(scheme: string): string {
  const fixed = FIXED[scheme];
  if (fixed !== undefined) return fixed;
  let h = 0;
  for (const c of scheme) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return SPARE[h % SPARE.length]!;
}

/** A run's label, unique within a set: its scheme and id (the demo's UUIDs shortened). */
export function runLabel(r: RunResult): string {
  const id = /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(r.id) ? r.id.slice(0, 8) : r.id;
  return `${r.scenario.scheme} · ${r.scenario.stream} · ${id}`;
}
