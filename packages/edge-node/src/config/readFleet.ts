import type { EdgeConfig, EdgeConfigInput } from './EdgeConfig.js';
import { failOption } from './checkOption.js';
import { originUrl } from './originUrl.js';

/** A steering service URL: http(s), may carry a query (it is the player's SERVER-URI as given). */
function steeringUrl(url: unknown): string {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    failOption('fleet.steeringUrl', `not a URL: ${JSON.stringify(url)}`, url);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') failOption('fleet.steeringUrl', `only http and https, got ${u.protocol}`, url);
  return u.href;
}

function pathwayId(v: unknown, option: string): string {
  if (typeof v !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(v)) failOption(option, 'a pathway id: letters, digits, ".", "-", "_"', v);
  return v;
}

/** The fleet this edge steers in, or undefined; `ttlSeconds` already checked by the option table. */
export function readFleet(f: EdgeConfigInput['fleet'], ttlSeconds: number): EdgeConfig['fleet'] {
  if (f === undefined) return undefined;
  const pathway = pathwayId(f?.pathway, 'fleet.pathway');
  const peers = (Array.isArray(f.peers) ? f.peers : []).map((p, i) => ({
    id: pathwayId(p?.id, `fleet.peers[${i}].id`),
    url: originUrl(`fleet.peers[${i}].url`, p?.url),
  }));
  const ids = new Set([pathway, ...peers.map((p) => p.id)]);
  if (ids.size !== peers.length + 1) failOption('fleet.peers', 'pathway ids must be unique', peers);
  const originPathway = f.originPathway === undefined ? undefined : pathwayId(f.originPathway, 'fleet.originPathway');
  if (originPathway !== undefined && ids.has(originPathway))
    failOption('fleet.originPathway', "must differ from the edges' ids", originPathway);
  return {
    pathway,
    publicUrl: originUrl('fleet.publicUrl', f.publicUrl),
    peers,
    originPathway,
    ttlSeconds,
    steeringUrl: f.steeringUrl === undefined ? undefined : steeringUrl(f.steeringUrl),
  };
}
