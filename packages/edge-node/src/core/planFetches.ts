export interface PlanInput {
  produced: number[];
  mostAdvanced: number | undefined;
  cached: Set<number>;
  inFlight: Set<number>;
  hold: number;
  maxParallel: number;
}

// TEMPORARY placeholder until @ethle/core's planner lands; replaced by a call into core.
// Fig. 3/4: keep segments mostAdvanced+1 … mostAdvanced+x local, oldest first, at most
// maxParallel in flight. Before any receiver: the newest visible and the x held ones.
export function planFetches(i: PlanInput): number[] {
  if (i.produced.length === 0) return [];
  const oldest = i.produced[0]!;
  const newest = i.produced[i.produced.length - 1]!;
  const from = i.mostAdvanced === undefined ? newest - i.hold : i.mostAdvanced + 1;
  const to = i.mostAdvanced === undefined ? newest : Math.min(newest, i.mostAdvanced + Math.max(1, i.hold));
  const out: number[] = [];
  let budget = i.maxParallel - i.inFlight.size;
  for (let id = Math.max(from, oldest); id <= to && budget > 0; id++) {
    if (i.cached.has(id) || i.inFlight.has(id)) continue;
    out.push(id);
    budget -= 1;
  }
  return out;
}
