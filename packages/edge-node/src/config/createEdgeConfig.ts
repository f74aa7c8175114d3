import { HOLD_LIMITS, receiveWindowFromBuffer, STREAM_DEFAULTS } from '@ethle/core';
import { readFileSync } from 'node:fs';
import { EDGE_OPTIONS } from './EDGE_OPTIONS.js';
import type { EdgeConfig, EdgeConfigInput } from './EdgeConfig.js';
import type { EdgeOption, NumberRule } from './EdgeOption.js';
import { checkNumber, failOption } from './checkOption.js';
import { checkOptions } from './checkOptions.js';
import { originUrl } from './originUrl.js';
import { readFleet } from './readFleet.js';
import { readOrigins } from './readOrigins.js';

/** Half of Linux's tcp_rmem max: the receive window autotuning can reach on the edge's origin sockets. */
function defaultReceiveWindow(): number | undefined {
  try {
    const max = Number(readFileSync('/proc/sys/net/ipv4/tcp_rmem', 'utf8').trim().split(/\s+/)[2]);
    return Number.isFinite(max) && max > 0 ? receiveWindowFromBuffer(max) : undefined;
  } catch {
    return undefined;
  }
}

/** Open file descriptors allowed to this process (soft RLIMIT_NOFILE), where Linux tells. */
function fdLimit(): number | undefined {
  try {
    const m = /Max open files\s+(\d+|unlimited)/.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m === null || m[1] === 'unlimited' ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

/** The table's rule of a number option whose default or bound depends on other options. */
function numberRule(options: readonly EdgeOption[], key: string): NumberRule {
  const rule = options.find((o) => o.key === key)?.rule;
  if (rule === undefined || rule.type === 'custom' || rule.type === 'enum' || rule.type === 'text')
    throw new Error(`the option table has no number rule for ${key}`);
  return rule;
}

/**
 * Validate an edge configuration once and fill in defaults. Throws EdgeError
 * ERR_EDGE_CONFIG_INVALID naming the option and what is wrong. The option table (EDGE_OPTIONS)
 * checks each option alone; here are the options that depend on others. `options`: the table
 * (tests pass a longer one).
 */
export function createEdgeConfig(input: EdgeConfigInput, options: readonly EdgeOption[] = EDGE_OPTIONS): EdgeConfig {
  if (typeof input !== 'object' || input === null) failOption('config', 'expected an object');
  const v = checkOptions(input, options) as unknown as EdgeConfig;
  const origins = readOrigins(input);
  const num = (key: string, value: unknown, def?: number, max?: number): number =>
    checkNumber(key, numberRule(options, key), value, def, max) as number;

  let hold: 'auto' | number = 'auto';
  if (input.hold !== undefined && input.hold !== 'auto') {
    const n = typeof input.hold === 'string' && /^\d+$/.test(input.hold) ? Number(input.hold) : input.hold;
    hold = checkNumber('hold', { type: 'integer', min: 0, max: HOLD_LIMITS.max }, n) as number;
  }
  const role = v.role;
  if (role === 'parent') {
    if (input.hold !== undefined && hold !== 0)
      failOption('hold', 'a parent never holds (x is decided at the edge near the receivers): leave hold unset or 0', input.hold);
    hold = 0;
  }
  const fleet = readFleet(input.fleet, v.fleet?.ttlSeconds as number);
  let sessionTokens: EdgeConfig['sessionTokens'];
  if (input.sessionTokens !== undefined) {
    const secret = input.sessionTokens?.secret;
    // 16 bytes at least: a short secret could be guessed from the tokens players carry.
    if (typeof secret !== 'string' || secret.length < 16 || secret.length > 1024)
      failOption('sessionTokens.secret', "the fleet's shared secret, 16 to 1024 characters", undefined);
    sessionTokens = { secret, ttlSeconds: v.sessionTokens!.ttlSeconds };
  }
  // A fixed hold above the default cap raises the cap with it.
  const maxHold = num('maxHold', input.maxHold, typeof hold === 'number' ? Math.max(v.maxHold, hold) : v.maxHold);
  if (typeof hold === 'number' && hold > maxHold) failOption('hold', `hold ${hold} exceeds maxHold ${maxHold}`, hold);

  // Parts are a fraction of a segment: up to ten parts per segment of the largest hold.
  const holdParts =
    input.holdParts === undefined || input.holdParts === 'auto'
      ? input.holdParts
      : (checkNumber('holdParts', { type: 'integer', min: 0, max: HOLD_LIMITS.max * 10 }, input.holdParts) as number);
  if (holdParts !== undefined && role === 'parent' && holdParts !== 0)
    failOption('holdParts', 'a parent never holds (x is decided where the receivers are): leave holdParts unset or 0', holdParts);

  const rni: EdgeConfig['rni'] = input.rni === undefined ? undefined : { ...v.rni!, url: originUrl('rni.url', input.rni?.url) };

  let tls: EdgeConfig['tls'];
  if (input.tls !== undefined) {
    if (typeof input.tls?.keyPath !== 'string' || typeof input.tls?.certPath !== 'string') {
      failOption('tls', 'give both keyPath and certPath (PEM files)', input.tls);
    }
    tls = { keyPath: input.tls.keyPath, certPath: input.tls.certPath };
  }

  const streamQueryParams = input.streamQueryParams ?? [...STREAM_DEFAULTS.streamQueryParams];
  if (!Array.isArray(streamQueryParams) || !streamQueryParams.every((p) => typeof p === 'string' && p.length > 0 && p.length <= 64)) {
    failOption('streamQueryParams', 'a list of query parameter names', streamQueryParams);
  }
  // Receivers' sockets must never take the descriptors the origin connections and files need: a
  // full fd table made every request fail with nothing logged.
  const fds = fdLimit();
  const connectionsRule = numberRule(options, 'maxConnections');
  const maxConnectionsDefault = fds === undefined ? connectionsRule.default : Math.max(64, Math.min(connectionsRule.default!, fds - 256));
  const maxConnections = num('maxConnections', input.maxConnections, maxConnectionsDefault);
  if (fds !== undefined && maxConnections > fds - 64)
    failOption(
      'maxConnections',
      `must leave room under the open-file limit (${fds}); raise it (ulimit -n) or lower maxConnections`,
      maxConnections,
    );

  // A browser opens at most 6 connections to a host over HTTP/1.1; 256 leaves room for a house of
  // players behind one address, and the rest of maxConnections to everyone else. A parent's
  // clients are edges, each with up to originMaxFetches connections (the workers of
  // `serve --workers` all come from 127.0.0.1): no per-client limit by default.
  // 0: no per-client limit (every receiver behind one address: a bench, a proxy on the box).
  const perClientRule = numberRule(options, 'maxConnectionsPerClient');
  const perClient = num(
    'maxConnectionsPerClient',
    input.maxConnectionsPerClient,
    role === 'parent' ? 0 : Math.min(perClientRule.default!, maxConnections),
    maxConnections,
  );
  const maxConnectionsPerClient = perClient === 0 ? maxConnections : perClient;

  let collector: EdgeConfig['collector'];
  if (input.collector !== undefined) {
    const c = input.collector;
    let u: URL | undefined;
    try {
      u = new URL(c.url);
    } catch {
      failOption('collector.url', `not a URL: ${JSON.stringify(c.url)}`, c.url);
    }
    if (u!.protocol !== 'http:' && u!.protocol !== 'https:') failOption('collector.url', `only http and https, got ${u!.protocol}`, c.url);
    if (c.label !== undefined && (typeof c.label !== 'string' || !/^[\x21-\x7e]{1,256}$/.test(c.label)))
      failOption('collector.label', 'must be 1..256 visible ASCII characters', c.label);
    collector = { url: c.url.replace(/\/+$/, ''), label: c.label, intervalMs: v.collector!.intervalMs };
  }

  return {
    ...v,
    origins,
    hold,
    fleet,
    sessionTokens,
    maxHold,
    holdParts,
    rni,
    tls,
    streamQueryParams,
    maxConnections,
    maxConnectionsPerClient,
    collector,
    backhaulReceiveWindowBytes: input.backhaulReceiveWindowBytes === undefined ? defaultReceiveWindow() : v.backhaulReceiveWindowBytes,
    // Four fetches per connection a stream may hold.
    originMaxFetches: num('originMaxFetches', input.originMaxFetches, 4 * (maxHold + 1)),
  };
}
