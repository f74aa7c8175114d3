/**
 * Several users in one radio cell behind one RAN relay (issue 16 item 3). Each user is one client
 * address (`firstClientIp` + i); the relay tells users apart by the IPv4 address on the client
 * side of each datagram.
 * - `per-user`: every user has its own link — own delay walk, own rate cap (the spec's).
 * - `shared`: the spec's rate cap is the cell's, shared by all users in one drop-tail queue
 *   (first come, first served); each user keeps its own delay walk.
 */
export interface CellSpec {
  users: number;
  mode: 'shared' | 'per-user';
}

/** Users a cell may have: one client address each in the RAN's /24. */
export const MAX_CELL_USERS = 200;

/**
 * User i's seed from the link's: user 0 keeps it (one user is the single-client testbed, the
 * same radio for the same seed), the others a different, still reproducible walk each.
 */
export function userSeed(seed: number | undefined, user: number): number | undefined {
  return seed === undefined ? undefined : user === 0 ? seed : (seed + Math.imul(user, 0x9e3779b9)) >>> 0;
}
