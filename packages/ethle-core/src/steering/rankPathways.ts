/** One pathway as the steering service last observed it. */
export interface PathwayObservation {
  id: string;
  ready: boolean;
  /** Load as a share of capacity (0 = idle, 1 = full; may exceed 1). */
  load: number;
}

/**
 * The priority of a fleet's pathways: ready ones first, least loaded first, but a pathway moves
 * ahead of the one before it (in the previous order) only when its load is lower by more than
 * `hysteresis` — two edges with loads that cross back and forth around each other would otherwise
 * swap on every steering round and their players would flap between them. Not-ready pathways
 * come last in their previous order. New pathways join at the end of the previous order.
 * Insertion sort with that rule: deterministic, O(n²) for a fleet's handful of pathways.
 */
export function rankPathways(o: { pathways: readonly PathwayObservation[]; previous: readonly string[]; hysteresis: number }): string[] {
  const prevIndex = new Map(o.previous.map((id, i) => [id, i]));
  const byPrevious = [...o.pathways].sort((a, b) => (prevIndex.get(a.id) ?? Infinity) - (prevIndex.get(b.id) ?? Infinity) || a.id.localeCompare(b.id));
  const ready = byPrevious.filter((p) => p.ready);
  const out: PathwayObservation[] = [];
  for (const p of ready) {
    let at = out.length;
    // Move ahead only past pathways loaded more than `hysteresis` above it.
    while (at > 0 && out[at - 1]!.load - p.load > o.hysteresis) at -= 1;
    out.splice(at, 0, p);
  }
  return [...out, ...byPrevious.filter((p) => !p.ready)].map((p) => p.id);
}
