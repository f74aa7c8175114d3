/**
 * Which edge of a fleet answers a player's next steering request, when the edges answer for each
 * other (no steering service): the first ready edge after the player's pathway in the fleet's
 * ring (its edges sorted by id, wrapping round), never the edge the player is on unless no other
 * is ready. The answer that would steer a player away from an edge must not come from that edge:
 * an edge that hangs (SIGSTOP, a full disk, a stuck event loop) does not refuse, it keeps its
 * players' steering requests waiting as long as their media requests. Walking the ring from each
 * pathway spreads the players of one edge onto the next rather than all onto one.
 *
 * `playerPathway` is where the player will be once it has read the answer (the first of the new
 * PATHWAY-PRIORITY, which may be the origin). `self` answers when nobody else can: it is alive,
 * since it is answering.
 */
export function pickSteeringServer(o: {
  edges: readonly string[];
  ready: (id: string) => boolean;
  playerPathway: string;
  self: string;
}): string {
  const ring = [...new Set(o.edges)].sort();
  // Just after the player's edge; the player on the origin (not in the ring: -1) from the first.
  const at = ring.indexOf(o.playerPathway);
  for (let i = 1; i <= ring.length; i++) {
    const id = ring[(at + i) % ring.length]!;
    if (id !== o.playerPathway && o.ready(id)) return id;
  }
  return o.self;
}
