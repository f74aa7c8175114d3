import { HOLD_LIMITS, HOLD_POLICY_DEFAULTS, receiveWindowFromBuffer, STREAM_DEFAULTS, timerMs } from '@ethle/core';
import { readFileSync } from 'node:fs';
import { EdgeError } from '../errors/EdgeError.js';
import type { EdgeConfig, EdgeConfigInput, OriginConfig, RanFailAction } from './EdgeConfig.js';

const ORIGIN_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/i;
const RAN_FAIL_ACTIONS: readonly RanFailAction[] = ['redirect-307', 'redirect-302', 'pass-through'];
const LOG_LEVELS: readonly EdgeConfig['logLevel'][] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const KNOWN_KEYS = new Set([
  'origin',
  'originPublicUrl',
  'origins',
  'host',
  'port',
  'hold',
  'maxHold',
  'initialWindow',
  'backhaulRttMs',
  'defaultRanMbps',
  'rni',
  'ranFailAction',
  'cache',
  'streamIdleMs',
  'sessionIdleMs',
  'originHeadersTimeoutMs',
  'originProbeMs',
  'originBodyTimeoutMs',
  'manifestStaleMs',
  'maxUrlLength',
  'tls',
  'logLevel',
  'streamQueryParams',
  'maxStreams',
  'maxSessions',
  'maxConnections',
  'maxConnectionsPerClient',
  'originMaxFetches',
  'originMaxQueued',
  'requestHeadersTimeoutMs',
  'keepAliveTimeoutMs',
  'drainMs',
  'minReceiverMbps',
  'sendDeadlineMinMs',
  'role',
  'fleet',
  'backhaulReceiveWindowBytes',
  'backhaulSendWindowBytes',
  'backhaulLossRate',
  'lowerHoldAfterSegments',
  'lowerHoldAfterSamples',
  'holdFloor',
  'segmentStart',
  'sessionTokens',
  'egressCapacityMbps',
  'holdParts',
  'maxBlockedPerStream',
  'collector',
]);

/** Half of Linux's tcp_rmem max: the receive window autotuning can reach on the edge's origin sockets. */
function defaultReceiveWindow(): number | undefined {
  try {
    const max = Number(readFileSync('/proc/sys/net/ipv4/tcp_rmem', 'utf8').trim().split(/\s+/)[2]);
    return Number.isFinite(max) && max > 0 ? receiveWindowFromBuffer(max) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The smallest segment cache accepted. The planner keeps x + 1 segments per stream and never
 * plans more than fits (SegmentCache.hasRoom), but a cache that cannot hold one 4K segment
 * (Table I: up to 61 MB) serves every segment through uncached: one origin fetch per receiver.
 */
const MIN_CACHE_BYTES = 16 * 1024 * 1024;

/** Open file descriptors allowed to this process (soft RLIMIT_NOFILE), where Linux tells. */
function fdLimit(): number | undefined {
  try {
    const m = /Max open files\s+(\d+|unlimited)/.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m === null || m[1] === 'unlimited' ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

function fail(option: string, message: string, value?: unknown): never {
  throw new EdgeError('ERR_EDGE_CONFIG_INVALID', `${option}: ${message}`, { option, value });
}

function num(option: string, v: unknown, def: number, min: number, max: number, integer = false): number {
  if (v === undefined) return def;
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(option, `expected a number, got ${JSON.stringify(v)}`, v);
  if (integer && !Number.isInteger(v)) fail(option, `expected an integer, got ${v}`, v);
  if (v < min || v > max) fail(option, `must be between ${min} and ${max}, got ${v}`, v);
  return v;
}

/** A duration option (ms): validated like any number, then a whole number a timer takes (timerMs). */
function ms(option: string, v: unknown, def: number, min: number, max: number): number {
  return timerMs(num(option, v, def, min, max));
}

function originUrl(option: string, url: unknown): string {
  if (typeof url !== 'string') fail(option, 'expected an http(s) URL string', url);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    fail(option, `not a URL: ${JSON.stringify(url)} (write it like http://origin.example:8081)`, url);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') fail(option, `only http and https origins, got ${u.protocol}`, url);
  if (u.search || u.hash) fail(option, 'an origin URL has no query or fragment', url);
  if (u.username || u.password) fail(option, 'credentials in the origin URL are not supported', url);
  // Keep a base path without trailing slash so `${url}${path}` joins cleanly.
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

/** A steering service URL: http(s), may carry a query (it is the player's SERVER-URI as given). */
function steeringUrl(url: unknown): string {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    fail('fleet.steeringUrl', `not a URL: ${JSON.stringify(url)}`, url);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') fail('fleet.steeringUrl', `only http and https, got ${u.protocol}`, url);
  return u.href;
}

/**
 * Validate an edge configuration once and fill in defaults. Throws EdgeError
 * ERR_EDGE_CONFIG_INVALID naming the option and what is wrong.
 */
export function createEdgeConfig(input: EdgeConfigInput): EdgeConfig {
  if (typeof input !== 'object' || input === null) fail('config', 'expected an object');
  for (const key of Object.keys(input)) {
    if (!KNOWN_KEYS.has(key)) fail(key, `unknown option (known: ${[...KNOWN_KEYS].join(', ')})`);
  }

  let origins: OriginConfig[];
  if (input.origin !== undefined && input.origins !== undefined) fail('origin', 'give either origin or origins, not both');
  if (input.origin !== undefined) {
    const url = originUrl('origin', input.origin);
    origins = [
      { name: 'origin', url, publicUrl: input.originPublicUrl === undefined ? url : originUrl('originPublicUrl', input.originPublicUrl) },
    ];
  } else if (Array.isArray(input.origins) && input.origins.length > 0) {
    const seen = new Set<string>();
    origins = input.origins.map((o, i) => {
      const name = o?.name;
      if (typeof name !== 'string' || !ORIGIN_NAME.test(name)) {
        fail(`origins[${i}].name`, 'a short name of letters, digits, - and _ (it becomes the path prefix)', name);
      }
      if (seen.has(name) || name === 'healthz' || name === 'metrics')
        fail(`origins[${i}].name`, `duplicate or reserved name ${name}`, name);
      seen.add(name);
      const url = originUrl(`origins[${i}].url`, o.url);
      return { name, url, publicUrl: o.publicUrl === undefined ? url : originUrl(`origins[${i}].publicUrl`, o.publicUrl) };
    });
  } else {
    fail('origin', 'required: --origin http://ORIGIN or an origins list in the config file');
  }
  if (input.originPublicUrl !== undefined && input.origin === undefined)
    fail('originPublicUrl', 'goes with origin; with an origins list give each its publicUrl');

  let hold: 'auto' | number = 'auto';
  if (input.hold !== undefined && input.hold !== 'auto') {
    const n = typeof input.hold === 'string' && /^\d+$/.test(input.hold) ? Number(input.hold) : input.hold;
    hold = num('hold', n, 0, 0, HOLD_LIMITS.max, true);
  }
  const role = input.role ?? 'edge';
  if (role !== 'edge' && role !== 'parent')
    fail('role', "one of 'edge' (holds) or 'parent' (a tier that prefetches without holding)", role);
  if (role === 'parent') {
    if (input.hold !== undefined && hold !== 0)
      fail('hold', 'a parent never holds (x is decided at the edge near the receivers): leave hold unset or 0', input.hold);
    hold = 0;
  }
  let fleet: EdgeConfig['fleet'];
  if (input.fleet !== undefined) {
    const f = input.fleet;
    const id = (v: unknown, option: string): string => {
      if (typeof v !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(v)) fail(option, 'a pathway id: letters, digits, ".", "-", "_"', v);
      return v;
    };
    const pathway = id(f?.pathway, 'fleet.pathway');
    const peers = (Array.isArray(f.peers) ? f.peers : []).map((p, i) => ({
      id: id(p?.id, `fleet.peers[${i}].id`),
      url: originUrl(`fleet.peers[${i}].url`, p?.url),
    }));
    const ids = new Set([pathway, ...peers.map((p) => p.id)]);
    if (ids.size !== peers.length + 1) fail('fleet.peers', 'pathway ids must be unique', peers);
    const originPathway = f.originPathway === undefined ? undefined : id(f.originPathway, 'fleet.originPathway');
    if (originPathway !== undefined && ids.has(originPathway))
      fail('fleet.originPathway', "must differ from the edges' ids", originPathway);
    fleet = {
      pathway,
      publicUrl: originUrl('fleet.publicUrl', f.publicUrl),
      peers,
      originPathway,
      ttlSeconds: num('fleet.ttlSeconds', f.ttlSeconds, 5, 1, 3600, true),
      steeringUrl: f.steeringUrl === undefined ? undefined : steeringUrl(f.steeringUrl),
    };
  }
  let sessionTokens: EdgeConfig['sessionTokens'];
  if (input.sessionTokens !== undefined) {
    const secret = input.sessionTokens?.secret;
    // 16 bytes at least: a short secret could be guessed from the tokens players carry.
    if (typeof secret !== 'string' || secret.length < 16 || secret.length > 1024)
      fail('sessionTokens.secret', "the fleet's shared secret, 16 to 1024 characters", undefined);
    sessionTokens = { secret, ttlSeconds: num('sessionTokens.ttlSeconds', input.sessionTokens.ttlSeconds, 600, 10, 86_400, true) };
  }
  const maxHold = num(
    'maxHold',
    input.maxHold,
    typeof hold === 'number' ? Math.max(HOLD_POLICY_DEFAULTS.maxHold, hold) : HOLD_POLICY_DEFAULTS.maxHold,
    1,
    HOLD_LIMITS.max,
    true,
  );
  if (typeof hold === 'number' && hold > maxHold) fail('hold', `hold ${hold} exceeds maxHold ${maxHold}`, hold);

  // Parts are a fraction of a segment: up to ten parts per segment of the largest hold.
  const holdParts =
    input.holdParts === undefined || input.holdParts === 'auto'
      ? input.holdParts
      : num('holdParts', input.holdParts, 0, 0, HOLD_LIMITS.max * 10, true);
  if (holdParts !== undefined && role === 'parent' && holdParts !== 0)
    fail('holdParts', 'a parent never holds (x is decided where the receivers are): leave holdParts unset or 0', holdParts);

  let rni: EdgeConfig['rni'];
  if (input.rni !== undefined) {
    rni = {
      url: originUrl('rni.url', input.rni?.url),
      cacheMs: ms('rni.cacheMs', input.rni.cacheMs, 1000, 0, 600_000),
      timeoutMs: ms('rni.timeoutMs', input.rni.timeoutMs, 500, 1, 60_000),
    };
  }

  const holdFloor = input.holdFloor ?? 'model';
  if (holdFloor !== 'model' && holdFloor !== 'measured')
    fail('holdFloor', `'model' or 'measured', got ${JSON.stringify(holdFloor)}`, holdFloor);
  const segmentStart = input.segmentStart ?? 'learn';
  if (segmentStart !== 'slow-start' && segmentStart !== 'warm' && segmentStart !== 'learn')
    fail(
      'segmentStart',
      `'slow-start' (the paper's: the origin restarts idle connections in slow start), 'warm' (it keeps its window across idle) or 'learn' (from the edge's own fetches), got ${JSON.stringify(segmentStart)}`,
      segmentStart,
    );
  const ranFailAction = input.ranFailAction ?? 'redirect-307';
  if (!RAN_FAIL_ACTIONS.includes(ranFailAction)) {
    fail('ranFailAction', `one of ${RAN_FAIL_ACTIONS.join(', ')} (a 301 would be cached by clients for good)`, ranFailAction);
  }

  let tls: EdgeConfig['tls'];
  if (input.tls !== undefined) {
    if (typeof input.tls?.keyPath !== 'string' || typeof input.tls?.certPath !== 'string') {
      fail('tls', 'give both keyPath and certPath (PEM files)', input.tls);
    }
    tls = { keyPath: input.tls.keyPath, certPath: input.tls.certPath };
  }

  // Quiet by default for programmatic use (tests, embedding); the CLI defaults to 'info'.
  const logLevel = input.logLevel ?? 'warn';
  if (!LOG_LEVELS.includes(logLevel)) fail('logLevel', `one of ${LOG_LEVELS.join(', ')}`, logLevel);
  const host = input.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host.length === 0) fail('host', 'expected an address to listen on', host);
  const streamQueryParams = input.streamQueryParams ?? [...STREAM_DEFAULTS.streamQueryParams];
  if (!Array.isArray(streamQueryParams) || !streamQueryParams.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 64)) {
    fail('streamQueryParams', 'a list of query parameter names', streamQueryParams);
  }
  // Receivers' sockets must never take the descriptors the origin connections and files need: a
  // full fd table made every request fail with nothing logged.
  const fds = fdLimit();
  const maxConnectionsDefault = fds === undefined ? 16_384 : Math.max(64, Math.min(16_384, fds - 256));
  const maxConnections = num('maxConnections', input.maxConnections, maxConnectionsDefault, 1, 1_000_000, true);
  if (fds !== undefined && maxConnections > fds - 64)
    fail(
      'maxConnections',
      `must leave room under the open-file limit (${fds}); raise it (ulimit -n) or lower maxConnections`,
      maxConnections,
    );

  // A browser opens at most 6 connections to a host over HTTP/1.1; 256 leaves room for a house of
  // players behind one address, and the rest of maxConnections to everyone else. A parent's
  // clients are edges, each with up to originMaxFetches connections (the workers of
  // `serve --workers` all come from 127.0.0.1): no per-client limit by default.
  // 0: no per-client limit (every receiver behind one address: a bench, a proxy on the box).
  const perClient = num(
    'maxConnectionsPerClient',
    input.maxConnectionsPerClient,
    role === 'parent' ? 0 : Math.min(256, maxConnections),
    0,
    maxConnections,
    true,
  );
  const maxConnectionsPerClient = perClient === 0 ? maxConnections : perClient;

  let collector: EdgeConfig['collector'];
  if (input.collector !== undefined) {
    const c = input.collector;
    let u: URL | undefined;
    try {
      u = new URL(c.url);
    } catch {
      fail('collector.url', `not a URL: ${JSON.stringify(c.url)}`, c.url);
    }
    if (u!.protocol !== 'http:' && u!.protocol !== 'https:') fail('collector.url', `only http and https, got ${u!.protocol}`, c.url);
    if (c.label !== undefined && (typeof c.label !== 'string' || !/^[\x21-\x7e]{1,256}$/.test(c.label)))
      fail('collector.label', 'must be 1..256 visible ASCII characters', c.label);
    collector = {
      url: c.url.replace(/\/+$/, ''),
      label: c.label,
      intervalMs: ms('collector.intervalMs', c.intervalMs, 5000, 100, 3_600_000),
    };
  }

  return {
    origins,
    host,
    collector,
    port: num('port', input.port, 8080, 0, 65535, true),
    hold,
    role,
    fleet,
    sessionTokens,
    egressCapacityMbps:
      input.egressCapacityMbps === undefined ? undefined : num('egressCapacityMbps', input.egressCapacityMbps, 0, 0.1, 10_000_000),
    maxHold,
    holdParts,
    maxBlockedPerStream: num('maxBlockedPerStream', input.maxBlockedPerStream, 1000, 1, 100_000, true),
    initialWindow: num('initialWindow', input.initialWindow, HOLD_POLICY_DEFAULTS.initialWindow, 1, 1000, true),
    backhaulRttMs: input.backhaulRttMs === undefined ? undefined : num('backhaulRttMs', input.backhaulRttMs, 0, 0.01, 10_000),
    backhaulReceiveWindowBytes:
      input.backhaulReceiveWindowBytes === undefined
        ? defaultReceiveWindow()
        : num('backhaulReceiveWindowBytes', input.backhaulReceiveWindowBytes, 0, 1024, 1024 ** 3, true),
    backhaulSendWindowBytes:
      input.backhaulSendWindowBytes === undefined
        ? undefined
        : num('backhaulSendWindowBytes', input.backhaulSendWindowBytes, 0, 1024, 1024 ** 3, true),
    backhaulLossRate: input.backhaulLossRate === undefined ? undefined : num('backhaulLossRate', input.backhaulLossRate, 0, 0, 0.5),
    // The defaults are nextStreamHold's own (dwellSegments 4, dwellSamples 3).
    lowerHoldAfterSegments: num('lowerHoldAfterSegments', input.lowerHoldAfterSegments, 4, 0, 1000),
    lowerHoldAfterSamples: num('lowerHoldAfterSamples', input.lowerHoldAfterSamples, 3, 1, 1000, true),
    holdFloor,
    segmentStart,
    defaultRanMbps: num('defaultRanMbps', input.defaultRanMbps, HOLD_POLICY_DEFAULTS.defaultRanMbps, 0.01, 100_000),
    rni,
    ranFailAction,
    cache: {
      maxBytes: num('cache.maxBytes', input.cache?.maxBytes, 512 * 1024 * 1024, MIN_CACHE_BYTES, 1024 ** 4, true),
      maxAgeMs: ms('cache.maxAgeMs', input.cache?.maxAgeMs, 120_000, 100, 86_400_000),
    },
    streamIdleMs: ms('streamIdleMs', input.streamIdleMs, STREAM_DEFAULTS.idleMs, 100, 86_400_000),
    sessionIdleMs: ms('sessionIdleMs', input.sessionIdleMs, 120_000, 100, 86_400_000),
    originHeadersTimeoutMs: ms('originHeadersTimeoutMs', input.originHeadersTimeoutMs, 10_000, 10, 600_000),
    originProbeMs: ms('originProbeMs', input.originProbeMs, 2_000, 0, 600_000),
    originBodyTimeoutMs: ms('originBodyTimeoutMs', input.originBodyTimeoutMs, 10_000, 10, 600_000),
    manifestStaleMs: ms('manifestStaleMs', input.manifestStaleMs, 12_000, 0, 3_600_000),
    maxUrlLength: num('maxUrlLength', input.maxUrlLength, 2048, 64, 65_536, true),
    streamQueryParams,
    maxStreams: num('maxStreams', input.maxStreams, 1000, 1, 1_000_000, true),
    maxSessions: num('maxSessions', input.maxSessions, 100_000, 1, 10_000_000, true),
    maxConnections,
    maxConnectionsPerClient,
    originMaxFetches: num('originMaxFetches', input.originMaxFetches, 4 * (maxHold + 1), 1, 10_000, true),
    originMaxQueued: num('originMaxQueued', input.originMaxQueued, 1024, 1, 1_000_000, true),
    requestHeadersTimeoutMs: ms('requestHeadersTimeoutMs', input.requestHeadersTimeoutMs, 10_000, 100, 600_000),
    keepAliveTimeoutMs: ms('keepAliveTimeoutMs', input.keepAliveTimeoutMs, 30_000, 100, 3_600_000),
    drainMs: ms('drainMs', input.drainMs, 10_000, 0, 3_600_000),
    minReceiverMbps: num('minReceiverMbps', input.minReceiverMbps, 1, 0.001, 100_000),
    sendDeadlineMinMs: ms('sendDeadlineMinMs', input.sendDeadlineMinMs, 10_000, 100, 3_600_000),
    tls,
    logLevel,
  };
}
