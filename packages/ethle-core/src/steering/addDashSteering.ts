import { EthleError } from '../errors/EthleError.js';

// The MPD start tag (attribute values in real MPDs carry no '>'), and MPD-level BaseURL elements.
const MPD_START_RE = /<MPD\b[^>]*>/;
const ESCAPE: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const esc = (v: string) => v.replace(/[&<>"]/g, (c) => ESCAPE[c]!);

/**
 * An MPD with DASH-IF Content Steering: `<ContentSteering defaultServiceLocation queryBeforeStart>`
 * naming the steering server, an MPD-level `<BaseURL serviceLocation>` (and, given, a `<Location>`
 * for MPD refreshes) for this edge — the
 * base every relative URL resolves against, and what the steering manifest's host clones copy for
 * the other edges and the origin. An MPD that already has BaseURL elements of its own is refused
 * (ERR_STEERING_INVALID): which of them a clone should copy is not this function's to guess.
 *
 * `peerBaseUrls`: a `<BaseURL serviceLocation>` for each other edge, after this edge's (the
 * default, and the one a reader taking the first BaseURL uses). dash.js synthesizes a pathway
 * clone only from a BaseURL the MPD has, and it drops the clone when a later steering answer is
 * based on another pathway: a player moved to a clone of edge-a was sent back to the hung edge-a
 * one steering answer later. With every edge written out, no edge is a clone.
 *
 * `peerLocations`: a `<Location serviceLocation>` for each other edge, written out. dash.js picks
 * the MPD refresh URL among Locations by the steering priority, like BaseURLs, but a Location it
 * synthesizes from a pathway clone keeps only the reference's path (dash.js 5: host + pathname),
 * so a query the edges need on refreshes (a session token) reaches another edge only through a
 * Location written for it.
 */
export function addDashSteering(
  text: string,
  o: {
    serverUri: string;
    serviceLocation: string;
    baseUrl: string;
    location?: string;
    peerLocations?: ReadonlyArray<{ serviceLocation: string; url: string }>;
    peerBaseUrls?: ReadonlyArray<{ serviceLocation: string; url: string }>;
  },
): string {
  const m = MPD_START_RE.exec(text);
  if (m === null) throw new EthleError('ERR_STEERING_INVALID', 'no MPD element', {});
  if (/<BaseURL\b/.test(text)) throw new EthleError('ERR_STEERING_INVALID', 'the MPD has BaseURL elements of its own', {});
  if (o.location !== undefined && /<Location\b/.test(text))
    throw new EthleError('ERR_STEERING_INVALID', 'the MPD has a Location of its own', {});
  const at = m.index + m[0].length;
  const loc = esc(o.serviceLocation);
  // A Location for the same service location: MPD refreshes follow the player to another edge too.
  let location = o.location === undefined ? '' : `\n  <Location serviceLocation="${loc}">${esc(o.location)}</Location>`;
  if (o.location !== undefined)
    for (const p of o.peerLocations ?? []) location += `\n  <Location serviceLocation="${esc(p.serviceLocation)}">${esc(p.url)}</Location>`;
  let bases = `\n  <BaseURL serviceLocation="${loc}">${esc(o.baseUrl)}</BaseURL>`;
  for (const p of o.peerBaseUrls ?? []) bases += `\n  <BaseURL serviceLocation="${esc(p.serviceLocation)}">${esc(p.url)}</BaseURL>`;
  const add = `${bases}${location}\n  <ContentSteering defaultServiceLocation="${loc}" queryBeforeStart="true">${esc(o.serverUri)}</ContentSteering>`;
  return text.slice(0, at) + add + text.slice(at);
}
