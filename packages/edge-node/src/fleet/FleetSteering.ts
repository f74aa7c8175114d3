import { createSteeringManifest, type SteeringManifest, type SteeringPathway } from '@ethle/core';
import { request } from 'undici';
import type { FleetConfig } from '../config/EdgeConfig.js';

/**
 * This edge's view of its fleet for content steering: which peers are ready (their /readyz,
 * polled once per steering TTL, each with a timeout), and the steering manifest a player on a
 * given pathway gets. One timer, a fixed list of peers: bounded by the config. `close()` stops it.
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

  /** Where players fetch the steering manifest: the fleet's steering service, else this edge. */
  get serverUri(): string {
    return this.#f.steeringUrl ?? `${this.#f.publicUrl}/_ethle/steering`;
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
    if (this.#f.originPathway !== undefined) pathways.push({ id: this.#f.originPathway, host: hostOf(this.#originUrl), ready: true, load: 0, lastResort: true });
    const base = current !== null && pathways.some((p) => p.id === current) ? current : this.#f.pathway;
    return createSteeringManifest({ pathways, basePathway: base, ttlSeconds: this.#f.ttlSeconds, reloadUri: this.serverUri });
  }

  close(): void {
    clearInterval(this.#timer);
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
 * dash.js `_DASH_pathway="edge-a"` or a quoted list, current first.
 */
export function currentPathway(query: URLSearchParams): string | null {
  const v = query.get('_HLS_pathway') ?? query.get('_DASH_pathway');
  if (v === null) return null;
  const first = v.replace(/^"|"$/g, '').split(',')[0]!.trim();
  return first === '' ? null : first;
}
