import type { DeadlineMiss } from '@ethle/core';

/** One late fetch for the log of the raise it caused: by how much, and on what it was projected. */
export function describeMiss(l: DeadlineMiss): string {
  const why = l.backlog === true ? ' (started late: not counted)' : l.tolerated === true ? ' (within tolerance: not counted)' : '';
  const by = `${((l.projectedMs - l.deadlineMs) / 1000).toFixed(2)} s late${why}`;
  if (l.queued === true) return `${l.id} waiting for a parallel slot, ${by}`;
  if (!l.inFlight) return `${l.id} not started, ${by}`;
  const mbps = l.projectedBps === undefined ? '' : ` at ${(l.projectedBps / 1e6).toFixed(1)} Mbit/s`;
  return `${l.id} ${((l.receivedBytes ?? 0) / 1e6).toFixed(2)} MB in${mbps}, ${by}`;
}
