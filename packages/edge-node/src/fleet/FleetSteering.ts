import { createSteeringManifest, pickSteeringServer, type SteeringManifest, type SteeringPathway } from '@ethle/core';
import { request } from 'undici';
import type { FleetConfig } from '../config/EdgeConfig.js';

/** Where an edge answers steering requests. */
export const STEERING_PATH = '/_ethle/steering';
/** The steering URIs the edges hand out name the player's pathway in this parameter. */
const PATHWAY_PARAM = 'ethle_pathway';

/**
 * This edge's view of its fleet for content steering: which peers are ready (their /readyz,
 * polled once per steering TTL, each with a timeout of min(2 s, TTL)), and the steering manifest
 * a player on a given pathway gets.
 *
 * Without a steering service the edges answer for each other: the steering URI in this edge's
 * manifests, and the RELOAD-URI of every steering answer, name another ready edge
 * (pickSteeringServer) — never the one the player is on, while another is ready. A player's
 * steering requests then never wait on the edge it may have to leave: an edge that hangs
 * (SIGSTOP) kept its players' steering requests hanging as long as their segment requests
 * (hls.js 24 s, dash.js 25 s of stall), so the order that would move them never arrived.
 *
 * One timer, a fixed list of peers: bounded by the config. `close()` stops it.
 */
export class FleetSteering {
  readonly #f: FleetConfig;
  readonly #originUrl: string;
  readonly #ready = new Map<string, boolean>();
  readonly #timer: NodeJS.Timeout;
  readonly #selfReady: () => boolean;

  constructor(fleet: FleetConfig, originUrl: string, selfReady: () => boolean) {
    this.#f = fleet;
    this.#originUrl = originUrl;
    this.#selfReady = selfReady;
    for (const p of fleet.peers) this.#ready.set(p.id, true);
    this.#timer = setInterval(() => void this.#probe(), fleet.ttlSeconds * 1000);
    this.#timer.unref();
    void this.#probe();
  }

  get pathway(): string {
    return this.#f.pathway;
  }

  /** This edge's base URL as players reach it. */
  get publicUrl(): string {
    return this.#f.publicUrl;
  }

  /** The other edges of the fleet (pathway id, public base URL), as configured. */
  get peers(): ReadonlyArray<{ id: string; url: string }> {
    return this.#f.peers;
  }

  /**
   * Where this edge's players fetch their first steering manifest (the manifests' SERVER-URI):
   * the fleet's steering service, else the next ready peer (this edge when none is).
   */
  get serverUri(): string {
    if (this.#f.steeringUrl === undefined) return this.#answerer(this.#f.pathway);
    // The service too is told where the player is: its first request names no pathway of its own.
    const u = new URL(this.#f.steeringUrl);
    u.searchParams.set(PATHWAY_PARAM, this.#f.pathway);
    return u.href;
  }

  /**
   * The steering manifest for a player on `current` (its _HLS_pathway / _DASH_pathway), else on
   * this edge. Clone hosts differ by player: dash.js replaces the URL's host (port included),
   * hls.js only the host name (a port in it is refused), keeping the URL's port.
   */
  manifest(current: string | null, player: 'hls' | 'dash'): SteeringManifest {
    const hostOf = (url: string): string => (player === 'dash' ? new URL(url).host : new URL(url).hostname);
    const pathways: SteeringPathway[] = [
      { id: this.#f.pathway, host: hostOf(this.#f.publicUrl), ready: this.#selfReady(), load: 0 },
      ...this.#f.peers.map((p) => ({ id: p.id, host: hostOf(p.url), ready: this.#ready.get(p.id) ?? false, load: 0 })),
    ];
    if (this.#f.originPathway !== undefined)
      pathways.push({ id: this.#f.originPathway, host: hostOf(this.#originUrl), ready: true, load: 0, lastResort: true });
    const base = current !== null && pathways.some((p) => p.id === current) ? current : this.#f.pathway;
    const m = createSteeringManifest({ pathways, basePathway: base, ttlSeconds: this.#f.ttlSeconds });
    // The next request goes to an edge other than the one the player is about to be on.
    return { ...m, 'RELOAD-URI': this.#f.steeringUrl ?? this.#answerer(m['PATHWAY-PRIORITY'][0]!) };
  }

  close(): void {
    clearInterval(this.#timer);
  }

  /** The steering URL of the edge that should answer a player on `playerPathway` (pickSteeringServer). */
  #answerer(playerPathway: string): string {
    const self = this.#f.pathway;
    const id = pickSteeringServer({
      edges: [self, ...this.#f.peers.map((p) => p.id)],
      ready: (e) => (e === self ? this.#selfReady() : this.#ready.get(e) === true),
      playerPathway,
      self,
    });
    // The player's pathway rides along for its first request: dash.js names none until it has
    // loaded a segment, and an answer based on the answering edge would move the player there.
    return `${id === self ? this.#f.publicUrl : this.#f.peers.find((p) => p.id === id)!.url}${STEERING_PATH}?${PATHWAY_PARAM}=${encodeURIComponent(playerPathway)}`;
  }

  async #probe(): Promise<void> {
    await Promise.all(
      this.#f.peers.map(async (p) => {
        try {
          const r = await request(`${p.url}/readyz`, { signal: AbortSignal.timeout(Math.min(2000, this.#f.ttlSeconds * 1000)) });
          await r.body.dump();
          this.#ready.set(p.id, r.statusCode === 200);
        } catch {
          this.#ready.set(p.id, false);
        }
      }),
    );
  }
}

/**
 * The pathway a player is on, from its steering request: hls.js sends `_HLS_pathway=edge-a`,
 * dash.js `_DASH_pathway="edge-a"` or a quoted list, current first; before either knows, the
 * pathway the edges put in the steering URI they handed out (`ethle_pathway`).
 */
export function currentPathway(query: URLSearchParams): string | null {
  const v = query.get('_HLS_pathway') ?? query.get('_DASH_pathway') ?? query.get(PATHWAY_PARAM);
  if (v === null) return null;
  const first = v.replace(/^"|"$/g, '').split(',')[0]!.trim();
  return first === '' ? null : first;
}
