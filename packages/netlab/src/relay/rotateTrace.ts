/**
 * A mahimahi trace started `offsetMs` into itself: the opportunities after the offset first,
 * shifted to begin at 0, then the ones before it, one period later — the same radio, entered at
 * another moment. Repeats of an experiment draw the offset from their seed, so each repeat drives
 * through another stretch of the trace (replaying it from 0 every time would make the repeats one
 * run). The period (the trace's last timestamp, where it loops) shortens by at most the gap
 * between two opportunities at the offset; the opportunities and their spacing are kept.
 */
export function rotateTrace(traceMs: readonly number[], offsetMs: number): number[] {
  const period = traceMs[traceMs.length - 1] ?? 0;
  if (traceMs.length === 0 || period <= 0) return [...traceMs];
  const o = ((Math.floor(offsetMs) % period) + period) % period;
  if (o === 0) return [...traceMs];
  const out: number[] = [];
  for (const t of traceMs) if (t > o) out.push(t - o);
  for (const t of traceMs) if (t <= o) out.push(t + period - o);
  return out;
}
