export interface PlanInput {
  produced: number[];
  mostAdvanced: number | undefined;
  cached: Set<number>;
  inFlight: Set<number>;
  hold: number;
  maxParallel: number;
}

// TEMPORARY placeholder until @ethle/core's planner lands; replaced by a call into core.
export function planFetches(i: PlanInput): number[] {
  if (i.produced.length === 0) return [];
  const newest = i.produced[i.produced.length - 1]!;
  const start = i.mostAdvanced ?? newest - i.hold;
  const out: number[] = [];
  const budget = i.maxParallel - i.inFlight.size;
  for (let id = newest; id >= start && out.length < budget; id--) {
    if (id >= i.produced[0]! && !i.cached.has(id) && !i.inFlight.has(id)) out.push(id);
  }
  return out;
}
