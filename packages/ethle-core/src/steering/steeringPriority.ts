/** One pathway as the steering service last observed it. */
export interface PathwayObservation {
  id: string;
  ready: boolean;
  /** Load as a share of capacity (0 = idle, 1 = full; may exceed 1). */
  load: number;
}

/**
 * The pathway priority a steering service gives one player, from the edges' readiness and load
 * shares (0 = idle, 1 = full) and where the player is (`current`, null for a new player):
 *
 * - ready edges before unready ones (all of them, in id order, when none is ready);
 * - a new player (or one on an unready or unknown pathway): least loaded first, ties by id —
 *   nothing to flap, so no hysteresis: new players go where the load is least;
 * - a player on a ready edge stays first there while its edge's load exceeds the least loaded
 *   one's by no more than max(`hysteresis` × its load, `minDifference`) — relative, so a
 *   difference of a few percent moves players whatever the edge's nominal capacity (an absolute
 *   0.1 of a 16,384-connection limit asked for 1,640 more connections before anyone moved);
 * - beyond that, only a share of that edge's players moves: with probability
 *   (load − least) / (2 × load), the share that brings two edges of equal capacity level
 *   (`u`, a sample in [0, 1) the caller draws per request). Every player of the loaded edge asks
 *   within one TTL; moving all of them would overshoot and move them back a TTL later.
 *
 * Pure: the caller passes the observations and the random sample.
 */
export function steeringPriority(o: {
  pathways: readonly PathwayObservation[];
  current: string | null;
  hysteresis: number;
  minDifference: number;
  u: number;
}): string[] {
  const byId = (a: PathwayObservation, b: PathwayObservation): number => a.id.localeCompare(b.id);
  const ready = o.pathways.filter((p) => p.ready).sort((a, b) => a.load - b.load || byId(a, b));
  const unready = o.pathways.filter((p) => !p.ready).sort(byId);
  const order = [...ready, ...unready].map((p) => p.id);
  const here = ready.find((p) => p.id === o.current);
  if (here === undefined || here === ready[0]) return order;
  const excess = here.load - ready[0]!.load;
  const stays = excess <= Math.max(o.hysteresis * here.load, o.minDifference) || o.u >= excess / (2 * here.load);
  return stays ? [here.id, ...order.filter((id) => id !== here.id)] : order;
}
