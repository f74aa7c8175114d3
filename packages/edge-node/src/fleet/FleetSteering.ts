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

  /** Where players fetch the steering manifest (this edge). */
  get serverUri(): string {
    return `${this.#f.publicUrl}/_ethle/steering`;
  }

  /** The steering manifest for a player on `current` (its _HLS_pathway / _DASH_pathway), else on this edge. */
  manifest(current: string | null): SteeringManifest {
    const pathways: SteeringPathway[] = [
      { id: this.#f.pathway, host: new URL(this.#f.publicUrl).hostname, ready: this.#selfReady(), load: 0 },
      ...this.#f.peers.map((p) => ({ id: p.id, host: new URL(p.url).hostname, ready: this.#ready.get(p.id) ?? false, load: 0 })),
    ];
    if (this.#f.originPathway !== undefined) pathways.push({ id: this.#f.originPathway, host: new URL(this.#originUrl).hostname, ready: true, load: 0, lastResort: true });
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
