/**
 * The difference of true latency between the columns, explained: the edge's hold, and — when the
 * players stalled differently — the stalls, since every second a player stalls puts it a second
 * further behind live: "+4.1 s (x = 2 × 2 s = 4.0 s held)", or after an outage the direct player
 * rode out worse "−7.4 s (x = 2 × 2 s = 4.0 s held; −11.3 s: the direct player stalled that much
 * longer)". What neither explains (≥ 1 s) is the players' own live offsets. Null until both
 * latencies are known. `stalledS`: each column's time stalled so far, s.
 */
export function describeDelta(
  directS: number | null,
  edgeS: number | null,
  hold: { segments: number; segmentSeconds: number } | undefined,
  stalledS?: { direct: number; edge: number },
): string | null {
  if (directS === null || edgeS === null) return null;
  const d = edgeS - directS;
  const signed = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(1)} s`;
  if (hold === undefined) return signed(d);
  const held = hold.segments * hold.segmentSeconds;
  const parts = [`x = ${hold.segments} × ${hold.segmentSeconds} s = ${held.toFixed(1)} s held`];
  const stall = stalledS === undefined ? 0 : stalledS.edge - stalledS.direct;
  if (Math.abs(stall) >= 0.5) parts.push(`${signed(stall)}: the ${stall < 0 ? 'direct' : 'edge'} player stalled that much longer`);
  const rest = d - held - (Math.abs(stall) >= 0.5 ? stall : 0);
  if (Math.abs(rest) >= 1 && Math.abs(stall) >= 0.5) parts.push(`${signed(rest)}: the players' own live offsets`);
  return `${signed(d)} (${parts.join('; ')})`;
}
