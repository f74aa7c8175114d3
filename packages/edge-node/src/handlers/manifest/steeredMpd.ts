import { addDashSteering, isEthleError } from '@ethle/core';
import type { FleetSteering } from '../../fleet/FleetSteering.js';

/** Where the session token goes in a steered MPD's Location (never sent). */
const TOKEN_MARK = '\u0000ethle-token\u0000';

/** Steered MPD texts by held text: freed with the held text (a new version, another x). */
const STEERED = new WeakMap<object, { serverUri: string; plain: Buffer; pieces: Buffer[] | undefined }>();

/**
 * In a fleet, an MPD names the steering server and this edge as a service location (dash.js
 * steers by BaseURL@serviceLocation). An MPD with BaseURLs of its own is served as it is. With
 * session tokens, the MPD carries the receiver's token in a Location for this edge and one for
 * each peer: dash.js refreshes the MPD from the Location of the pathway the steering server puts
 * first, so the edge it moves to gets the receiver's state as of its last refresh here. (A
 * Location dash.js synthesizes from a pathway clone would lose the token: it keeps only the path.)
 */
export function steeredMpd(
  fleet: FleetSteering,
  held: { text: string; body: Buffer },
  edgePath: string,
  token: string | undefined,
): Buffer {
  // Once per held text (the stream caches one per origin version × x), not once per request: the
  // text around the tokens is kept, the token goes in between.
  // The steering URI names a ready peer (FleetSteering.serverUri): a new one makes a new text.
  const serverUri = fleet.serverUri;
  let cached = STEERED.get(held);
  if (cached === undefined || cached.serverUri !== serverUri) {
    cached = { serverUri, plain: held.body, pieces: undefined };
    try {
      const dir = edgePath.slice(0, edgePath.lastIndexOf('/') + 1);
      const text = addDashSteering(held.text, {
        serverUri,
        serviceLocation: fleet.pathway,
        baseUrl: `${fleet.publicUrl}${dir}`,
        location: `${fleet.publicUrl}${edgePath}${TOKEN_MARK}`,
        peerLocations: fleet.peers.map((p) => ({ serviceLocation: p.id, url: `${p.url}${edgePath}${TOKEN_MARK}` })),
        peerBaseUrls: fleet.peers.map((p) => ({ serviceLocation: p.id, url: `${p.url}${dir}` })),
      });
      const pieces = text.split(TOKEN_MARK);
      cached = { serverUri, plain: Buffer.from(pieces.join(''), 'utf8'), pieces: pieces.map((t) => Buffer.from(t, 'utf8')) };
    } catch (e) {
      if (!isEthleError(e)) throw e;
    }
    STEERED.set(held, cached);
  }
  if (token === undefined || cached.pieces === undefined) return cached.plain;
  const q = Buffer.from(`?ethle_session=${token}`, 'latin1');
  const parts: Buffer[] = [cached.pieces[0]!];
  for (let i = 1; i < cached.pieces.length; i++) parts.push(q, cached.pieces[i]!);
  return Buffer.concat(parts);
}
