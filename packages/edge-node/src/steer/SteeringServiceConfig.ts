import { timerMs } from '@ethle/core';
import { EdgeError } from '../errors/EdgeError.js';

/** The validated configuration of a steering service (`ethle-edge steer`). */
export interface SteeringServiceConfig {
  /** The fleet's edges: pathway id and base URL (as players reach it; the service probes it there). */
  edges: Array<{ id: string; url: string }>;
  /** The origin as the last-resort pathway, or undefined: players are never steered to it. */
  origin: { id: string; url: string } | undefined;
  host: string;
  port: number;
  /** Steering TTL (s): how often players ask, so how fast they leave a dead edge. */
  ttlSeconds: number;
  /** Every this many ms each edge's /_ethle/load is read (at most one round in flight). */
  probeMs: number;
  probeTimeoutMs: number;
  /**
   * A player stays on its edge while that edge's load share exceeds the least loaded edge's by at
   * most this share of its own load (relative: 0.1 = 10 %), or by at most `minLoadDifference`.
   */
  hysteresis: number;
  /** Load-share differences up to this move nobody (a few connections on an idle fleet). */
  minLoadDifference: number;
  /** Successful probes in a row before an edge that failed is steered to again. */
  riseAfter: number;
}

export interface SteeringServiceInput {
  edges: Array<{ id: string; url: string }>;
  origin?: { id: string; url: string };
  host?: string;
  port?: number;
  ttlSeconds?: number;
  probeMs?: number;
  probeTimeoutMs?: number;
  hysteresis?: number;
  minLoadDifference?: number;
  riseAfter?: number;
}

const ID_RE = /^[A-Za-z0-9._-]{1,64}$/;
/** More edges than a steering manifest should list (players try pathways in order). */
const MAX_EDGES = 64;

function fail(option: string, message: string, value?: unknown): never {
  throw new EdgeError('ERR_EDGE_CONFIG_INVALID', `${option}: ${message}`, { option, value });
}

function num(option: string, v: number | undefined, def: number, min: number, max: number): number {
  if (v === undefined) return def;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) fail(option, `a number between ${min} and ${max}`, v);
  return v;
}

function baseUrl(option: string, url: unknown): string {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    fail(option, `not a URL: ${JSON.stringify(url)}`, url);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') fail(option, `only http and https, got ${u.protocol}`, url);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

/** Validate once; throws ERR_EDGE_CONFIG_INVALID naming the option. */
export function createSteeringServiceConfig(input: SteeringServiceInput): SteeringServiceConfig {
  if (!Array.isArray(input.edges) || input.edges.length === 0) fail('edges', 'at least one edge: id=URL');
  if (input.edges.length > MAX_EDGES) fail('edges', `at most ${MAX_EDGES}`, input.edges.length);
  const ids = new Set<string>();
  const edges = input.edges.map((e, i) => {
    if (typeof e?.id !== 'string' || !ID_RE.test(e.id)) fail(`edges[${i}].id`, 'a pathway id: letters, digits, ".", "-", "_"', e?.id);
    if (ids.has(e.id)) fail(`edges[${i}].id`, `duplicate pathway id ${e.id}`, e.id);
    ids.add(e.id);
    return { id: e.id, url: baseUrl(`edges[${i}].url`, e.url) };
  });
  let origin: SteeringServiceConfig['origin'];
  if (input.origin !== undefined) {
    if (!ID_RE.test(input.origin.id) || ids.has(input.origin.id)) fail('origin.id', 'a pathway id that no edge has', input.origin.id);
    origin = { id: input.origin.id, url: baseUrl('origin.url', input.origin.url) };
  }
  const ttlSeconds = num('ttlSeconds', input.ttlSeconds, 5, 1, 3600);
  if (!Number.isInteger(ttlSeconds)) fail('ttlSeconds', 'an integer (HLS and DASH steering TTLs are whole seconds)', ttlSeconds);
  // Probing faster than players ask is what makes a dead edge leave within one TTL.
  const probeMs = timerMs(num('probeMs', input.probeMs, Math.min(1000, ttlSeconds * 500), 50, 600_000));
  return {
    edges,
    origin,
    host: input.host ?? '127.0.0.1',
    port: num('port', input.port, 8090, 0, 65535),
    ttlSeconds,
    probeMs,
    probeTimeoutMs: timerMs(num('probeTimeoutMs', input.probeTimeoutMs, Math.min(1000, probeMs), 10, 60_000)),
    hysteresis: num('hysteresis', input.hysteresis, 0.1, 0, 10),
    // 1 % of capacity: 164 connections of the default 16,384, 7 of an fd-limited 768 — a player's
    // own few connections move nobody.
    minLoadDifference: num('minLoadDifference', input.minLoadDifference, 0.01, 0, 1),
    riseAfter: num('riseAfter', input.riseAfter, 2, 1, 100),
  };
}
