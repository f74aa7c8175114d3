import {
  createSteeringManifest,
  nextPathwayHealth,
  steeringPriority,
  type PathwayHealth,
  type SteeringManifest,
  type SteeringPathway,
} from '@ethle/core';
import { request } from 'undici';
import { LOAD_PATH, type EdgeLoadReport } from '../fleet/EdgeLoadReport.js';
import type { SteeringServiceConfig } from './SteeringServiceConfig.js';

/** What the service knows of one edge: its health across probes and its load share. */
export interface EdgeStatus {
  id: string;
  url: string;
  health: PathwayHealth;
  /** max(connections / maxConnections, egress / capacity), 0 before any report. */
  load: number;
  egressMbps: number | undefined;
  connections: number | undefined;
  /** Why the last probe failed, if it did. */
  error: string | undefined;
}

/**
 * The fleet's steering service: reads each edge's load report every probeMs (readiness,
 * connections, bytes sent — the egress rate is taken between two reports) and answers each
 * player's steering request from it (steeringPriority): ready edges first; a new player to the
 * least loaded; a player stays on its edge unless that edge is loaded beyond the hysteresis, and
 * then only a share of its players moves, so two edges level instead of swapping their players
 * every TTL; an edge that comes back is steered to after `riseAfter` good probes
 * (nextPathwayHealth). `order` is what a new player gets. State is one entry per configured edge
 * and the last order: bounded by the config. One timer, at most one probe round in flight;
 * `close()` stops both.
 */
export class SteeringService {
  readonly #c: SteeringServiceConfig;
  readonly #edges: Map<string, EdgeStatus & { last: { sentBytes: number; atMs: number } | undefined }>;
  readonly #timer: NodeJS.Timeout;
  readonly #onOrder: (order: string[]) => void;
  readonly #random: () => number;
  #order: string[];
  #round: Promise<void> | undefined;
  #closed = false;

  constructor(config: SteeringServiceConfig, onOrder: (order: string[]) => void = () => undefined, random: () => number = Math.random) {
    this.#c = config;
    this.#onOrder = onOrder;
    this.#random = random;
    // Not ready until a probe says so: a player is never steered to an edge nobody has seen. The
    // first good probe is enough (riseAfter is for edges that failed).
    this.#edges = new Map(
      config.edges.map((e) => [
        e.id,
        {
          id: e.id,
          url: e.url,
          health: { ready: false, okStreak: config.riseAfter - 1 },
          load: 0,
          egressMbps: undefined,
          connections: undefined,
          error: 'not probed yet',
          last: undefined,
        },
      ]),
    );
    this.#order = config.edges.map((e) => e.id);
    this.#timer = setInterval(() => void this.probe(), config.probeMs);
    this.#timer.unref();
  }

  /** The pathway priority a new player gets now (edges only, ready ones first). */
  get order(): readonly string[] {
    return this.#order;
  }

  status(): EdgeStatus[] {
    return [...this.#edges.values()].map(({ last: _last, ...s }) => ({ ...s, health: { ...s.health } }));
  }

  /**
   * The steering manifest for a player on `current`. Clone hosts differ by player: dash.js
   * replaces the URL's host with its port, hls.js only the host name (it refuses a port).
   */
  manifest(current: string | null, player: 'hls' | 'dash'): SteeringManifest {
    const hostOf = (url: string): string => (player === 'dash' ? new URL(url).host : new URL(url).hostname);
    const priority = this.#priority(current, this.#random());
    const rank = new Map(priority.map((id, i) => [id, i]));
    const pathways: SteeringPathway[] = [...this.#edges.values()].map((e) => ({
      id: e.id,
      host: hostOf(e.url),
      ready: e.health.ready,
      load: rank.get(e.id)!,
    }));
    if (this.#c.origin !== undefined)
      pathways.push({ id: this.#c.origin.id, host: hostOf(this.#c.origin.url), ready: true, load: 0, lastResort: true });
    // A player on an unknown pathway (or none yet) is based on the first edge of its priority.
    const base = current !== null && pathways.some((p) => p.id === current) ? current : priority[0]!;
    return createSteeringManifest({ pathways, basePathway: base, ttlSeconds: this.#c.ttlSeconds });
  }

  #priority(current: string | null, u: number): string[] {
    const pathways = [...this.#edges.values()].map((e) => ({ id: e.id, ready: e.health.ready, load: e.load }));
    return steeringPriority({ pathways, current, hysteresis: this.#c.hysteresis, minDifference: this.#c.minLoadDifference, u });
  }

  /** One probe round (also run by the timer); resolves when every edge answered or timed out. */
  probe(): Promise<void> {
    this.#round ??= this.#probeAll().finally(() => (this.#round = undefined));
    return this.#round;
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
  }

  async #probeAll(): Promise<void> {
    await Promise.all([...this.#edges.values()].map((e) => this.#probeOne(e)));
    if (this.#closed) return;
    const order = this.#priority(null, 0);
    if (order.join() !== this.#order.join()) {
      this.#order = order;
      this.#onOrder(order);
    }
  }

  async #probeOne(e: EdgeStatus & { last: { sentBytes: number; atMs: number } | undefined }): Promise<void> {
    let report: EdgeLoadReport | undefined;
    try {
      const r = await request(`${e.url}${LOAD_PATH}`, { signal: AbortSignal.timeout(this.#c.probeTimeoutMs) });
      if (r.statusCode !== 200) {
        await r.body.dump();
        throw new Error(`${LOAD_PATH} answered ${r.statusCode}`);
      }
      report = (await r.body.json()) as EdgeLoadReport;
      if (
        typeof report?.ready !== 'boolean' ||
        !Number.isFinite(report.connections) ||
        !Number.isFinite(report.sentBytes) ||
        !Number.isFinite(report.atMs)
      )
        throw new Error('not a load report');
    } catch (err) {
      e.health = nextPathwayHealth(e.health, false, this.#c.riseAfter);
      e.error = (err as Error).message;
      e.last = undefined;
      return;
    }
    e.health = nextPathwayHealth(e.health, report.ready, this.#c.riseAfter);
    e.error = report.ready ? undefined : `not ready: ${report.reason ?? 'unknown'}`;
    e.connections = report.connections;
    // Egress between two reports of the same edge run (bytes only grow; a restart starts over).
    if (e.last !== undefined && report.sentBytes >= e.last.sentBytes && report.atMs > e.last.atMs) {
      e.egressMbps = ((report.sentBytes - e.last.sentBytes) * 8) / ((report.atMs - e.last.atMs) * 1000);
    }
    e.last = { sentBytes: report.sentBytes, atMs: report.atMs };
    const byConnections = report.maxConnections > 0 ? report.connections / report.maxConnections : 0;
    const byEgress =
      report.egressCapacityMbps !== null && report.egressCapacityMbps > 0 && e.egressMbps !== undefined
        ? e.egressMbps / report.egressCapacityMbps
        : 0;
    e.load = Math.max(byConnections, byEgress);
  }
}
