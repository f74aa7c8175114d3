/**
 * The difference of true latency between the columns, explained by the edge's hold:
 * "+4.1 s (x = 2 × 2 s = 4.0 s held)". Null until both latencies are known.
 */
export function describeDelta(directS: number | null, edgeS: number | null, hold: { segments: number; segmentSeconds: number } | undefined): string | null {
  if (directS === null || edgeS === null) return null;
  const d = edgeS - directS;
  const delta = `${d >= 0 ? '+' : '−'}${Math.abs(d).toFixed(1)} s`;
  if (hold === undefined) return delta;
  const held = hold.segments * hold.segmentSeconds;
  return `${delta} (x = ${hold.segments} × ${hold.segmentSeconds} s = ${held.toFixed(1)} s held)`;
}
