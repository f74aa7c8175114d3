import { EthleError } from '../errors/EthleError.js';

/** One pathway of a fleet: an edge (or the origin, the last resort) a player can take. */
export interface SteeringPathway {
  /** PATHWAY-ID: letters, digits, '.', '-', '_' (HLS Content Steering). */
  id: string;
  /** Host the pathway's URIs use (URI-REPLACEMENT HOST of a clone of the base pathway). */
  host: string;
  /** Ready for receivers (its /readyz answered 200 lately). */
  ready: boolean;
  /** Its load, any unit that orders (e.g. open connections): less first. */
  load: number;
  /** The origin: always last, whatever its load, so a player leaves the edges only when all fail. */
  lastResort?: boolean;
}

/** The steering manifest of HLS Content Steering (Apple) / DASH-IF Content Steering, version 1. */
export interface SteeringManifest {
  VERSION: 1;
  TTL: number;
  'RELOAD-URI'?: string;
  'PATHWAY-PRIORITY': string[];
  'PATHWAY-CLONES'?: Array<{ 'BASE-ID': string; ID: string; 'URI-REPLACEMENT': { HOST: string } }>;
}

const PATHWAY_ID_RE = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The fleet's steering manifest for a player currently on `basePathway` (hls.js and dash.js send
 * it as `_HLS_pathway` / `_DASH_pathway`): pathways ordered ready first, least loaded first, the
 * origin last; every other pathway a clone of the base one with its host, so a multivariant
 * playlist or MPD that lists the base pathway's URIs is enough for the player to move. A pathway
 * that is not ready is left out (a player would only fail over to it) unless none is ready. The
 * TTL is how fast players notice a failure: small (seconds) for failover.
 */
export function createSteeringManifest(o: {
  pathways: readonly SteeringPathway[];
  basePathway: string;
  ttlSeconds: number;
  reloadUri?: string;
}): SteeringManifest {
  if (!(o.ttlSeconds >= 1) || !Number.isInteger(o.ttlSeconds))
    throw new EthleError('ERR_STEERING_INVALID', `ttlSeconds must be an integer ≥ 1, got ${o.ttlSeconds}`, { ttlSeconds: o.ttlSeconds });
  for (const p of o.pathways)
    if (!PATHWAY_ID_RE.test(p.id)) throw new EthleError('ERR_STEERING_INVALID', `not a pathway id: ${JSON.stringify(p.id)}`, { id: p.id });
  const base = o.pathways.find((p) => p.id === o.basePathway);
  if (base === undefined)
    throw new EthleError('ERR_STEERING_INVALID', `unknown base pathway ${JSON.stringify(o.basePathway)}`, { basePathway: o.basePathway });
  const edges = o.pathways.filter((p) => !p.lastResort);
  // Ties keep the player where it is (the base pathway first), then by id: no needless moves.
  const rank = (p: SteeringPathway) => (p.id === base.id ? 0 : 1);
  const ready = edges.filter((p) => p.ready).sort((a, b) => a.load - b.load || rank(a) - rank(b) || a.id.localeCompare(b.id));
  const order = (ready.length > 0 ? ready : edges).map((p) => p.id);
  for (const p of o.pathways) if (p.lastResort) order.push(p.id);
  const clones = o.pathways
    .filter((p) => p.id !== base.id && order.includes(p.id))
    .map((p) => ({ 'BASE-ID': base.id, ID: p.id, 'URI-REPLACEMENT': { HOST: p.host } }));
  return {
    VERSION: 1,
    TTL: o.ttlSeconds,
    ...(o.reloadUri === undefined ? {} : { 'RELOAD-URI': o.reloadUri }),
    'PATHWAY-PRIORITY': order,
    ...(clones.length > 0 ? { 'PATHWAY-CLONES': clones } : {}),
  };
}
