import { createHoldPolicy } from '@ethle/core';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { SegmentCache } from './cache/SegmentCache.js';
import { CoarseClock } from './clock/CoarseClock.js';
import type { EdgeConfig } from './config/EdgeConfig.js';
import type { EdgeContext, Origin } from './EdgeContext.js';
import { EdgeError } from './errors/EdgeError.js';
import { EdgeEvents } from './events/EdgeEvents.js';
import { createEdgeServer } from './http/createEdgeServer.js';
import { createRouter } from './http/createRouter.js';
import type { ReceiverConnections } from './http/ReceiverConnections.js';
import { sendError } from './http/sendError.js';
import { FleetSteering } from './fleet/FleetSteering.js';
import type { EdgeLoadReport } from './fleet/EdgeLoadReport.js';
import { SessionTokens } from './fleet/SessionTokens.js';
import { SessionHandover } from './fleet/SessionHandover.js';
import { SummedWarnings } from './log/SummedWarnings.js';
import { EdgeMetrics } from './metrics/EdgeMetrics.js';
import { OriginClient } from './origin/OriginClient.js';
import { recordOriginFetch } from './origin/recordOriginFetch.js';
import { RadioMeter } from './radio/RadioMeter.js';
import { RNI_CALLBACK_PATH, RniSubscription } from './radio/RniSubscription.js';
import type { EdgeStats, RunningEdge, StartEdgeOptions } from './RunningEdge.js';
import { SessionFacts } from './sessions/SessionFacts.js';
import { SessionReporter } from './sessions/SessionReporter.js';
import { StreamRegistry } from './stream/StreamRegistry.js';
import { SendDeadlines } from './http/SendDeadlines.js';
import { performance } from 'node:perf_hooks';

export type { EdgeStats, RunningEdge, StartEdgeOptions };

/**
 * Start an ETHLE edge with a config from createEdgeConfig(). Resolves once it listens. The
 * composition root: it builds the parts (cache, metrics, the core's hold policy, origin clients,
 * stream registry, router, server, housekeeping) and wires them; the decisions live in the parts.
 */
export async function startEdge(config: EdgeConfig, options: StartEdgeOptions = {}): Promise<RunningEdge> {
  const log = options.logger ?? pino({ level: config.logLevel, base: { svc: 'ethle-edge' } });
  const clock = new CoarseClock();
  const now = (): number => clock.now();
  const events = new EdgeEvents();
  const metrics = new EdgeMetrics(true);
  const cache = new SegmentCache({
    maxBytes: config.cache.maxBytes,
    maxAgeMs: config.cache.maxAgeMs,
    now,
    onBypass: () => metrics.cacheBypass.inc(),
    onEvict: (_e, reason) => metrics.cacheEvictions.inc({ reason }),
    onWait: () => metrics.budgetWaits.inc(),
    onRefetch: (_key, after, bytes) => {
      metrics.refetches.inc({ after });
      metrics.refetchedBytes.inc({ after }, bytes);
    },
  });
  metrics.heldSource = () => ({ cache: cache.budget.held('cache'), transit: cache.budget.held('transit'), max: cache.budget.max });
  // x is the operator's main figure: every change is logged with the rate it was decided on.
  const policy = createHoldPolicy(
    {
      hold: config.hold,
      ...(config.holdParts === undefined ? {} : { holdParts: config.holdParts }),
      maxHold: config.maxHold,
      initialWindow: config.initialWindow,
      defaultRanMbps: config.defaultRanMbps,
      ranFailAction: config.ranFailAction === 'pass-through' ? 'pass-through' : 'redirect',
      redirectSustainMs: config.redirectSustainMs,
      maxSessions: config.maxSessions,
      sessionIdleMs: config.sessionIdleMs,
      ...(config.backhaulReceiveWindowBytes === undefined ? {} : { receiveWindowBytes: config.backhaulReceiveWindowBytes }),
      ...(config.backhaulSendWindowBytes === undefined ? {} : { sendWindowBytes: config.backhaulSendWindowBytes }),
      ...(config.backhaulLossRate === undefined ? {} : { lossRate: config.backhaulLossRate }),
      lowerAfterSegments: config.lowerHoldAfterSegments,
      lowerAfterSamples: config.lowerHoldAfterSamples,
      holdFloor: config.holdFloor,
      segmentStart: config.segmentStart,
    },
    {
      onChange: (c) => events.emit('hold-change', c),
      onPartChange: (c) => events.emit('part-hold-change', c),
      onGroupChange: (c) => {
        if (c.from !== undefined) metrics.groupMoves.inc();
        events.emit('session-group', c);
      },
    },
  );
  events.on('hold-change', (e) =>
    log.info({ stream: e.stream, hold: e.hold, backhaulMbps: +e.backhaulMbps.toFixed(2), reason: e.reason }, 'hold change'),
  );
  events.on('part-hold-change', (e) => log.info(e, 'parts held change'));
  // A receiver handed over from another edge: where from, and with what (the fleet's handovers in the log).
  events.on('session-adopted', (e) => log.info(e, 'session adopted'));
  // Per segment request: only when asked for (experiments use it to tell a stall's cause apart).
  if (log.isLevelEnabled('debug')) events.on('segment-request', (e) => log.debug(e, 'segment request'));

  // Called from every boundary's catch (and from pollers' promises that must not reject): it never throws.
  const bug = (where: string, error: unknown, details?: Record<string, unknown>): void => {
    metrics.internalErrors.inc({ where });
    try {
      log.error({ ...details, err: error, where }, 'internal error (that request or fetch failed; serving on)');
    } catch {
      // The log destination itself failed: the bug is still counted and published.
    }
    events.emit('error', { where, error: error instanceof Error ? error : new Error(String(error)) });
  };
  const origins = new Map<string, Origin>();
  // Behind a parent tier, the RTT that matters is to the origin: the leg to the parent plus what
  // the parent reports beyond itself.
  const rttFor = (name: string): number | undefined => {
    if (config.backhaulRttMs !== undefined) return config.backhaulRttMs;
    const c = origins.get(name)?.client;
    const own = c?.rtt.estimateMs(Date.now());
    return own === undefined || c!.upstreamRttMs === undefined ? own : own + c!.upstreamRttMs;
  };
  // Warnings a request can cause (a failed origin fetch), summed: one line per kind per 10 s.
  const warnings = new SummedWarnings(log, 10_000, now);
  const onFetch = recordOriginFetch({
    config,
    metrics,
    policy,
    events,
    log,
    warnings,
    rttFor,
    isTier: (name) => origins.get(name)?.client.upstreamRttMs !== undefined,
  });
  for (const o of config.origins) {
    const client = new OriginClient({
      name: o.name,
      url: o.url,
      connections: config.originMaxFetches,
      // x connections for held segments, one for the segment a receiver waits for (III-B).
      connectionsPerStream: config.maxHold + 1,
      maxQueued: config.originMaxQueued,
      headersTimeoutMs: config.originHeadersTimeoutMs,
      bodyTimeoutMs: config.originBodyTimeoutMs,
      cache,
      onFetch,
      onPassThrough: () => metrics.passThrough.inc(),
      onBug: bug,
    });
    origins.set(o.name, { cfg: o, client, prefix: config.origins.length === 1 ? '' : `/${o.name}` });
  }
  const streams = new StreamRegistry({ config, cache, policy, events, metrics, log, now, rttFor, bug });
  const rni = config.rni === undefined ? undefined : new RniSubscription(config.rni);
  const radio = new RadioMeter(config.maxSessions);
  const sessions = new SessionFacts(events, now, Math.min(config.maxSessions, 50_000));
  let draining = false;
  // An origin is reachable when it answered within three probe intervals (or 30 s without probes).
  const freshMs = config.originProbeMs > 0 ? 3 * config.originProbeMs : 30_000;
  const notReady = (): string | undefined => {
    if (draining) return 'draining';
    for (const o of origins.values()) if (Date.now() - o.client.lastAnswerMs > freshMs) return `origin ${o.cfg.name} has not answered`;
    return undefined;
  };
  const fleet =
    config.fleet === undefined ? undefined : new FleetSteering(config.fleet, config.origins[0]!.url, () => notReady() === undefined);
  const sessionTokens =
    config.sessionTokens === undefined
      ? undefined
      : new SessionTokens({ ...config.sessionTokens, issuer: config.fleet?.pathway ?? '', maxEntries: config.maxSessions });
  // A moved receiver's first playlist request waits at most this for its previous edge's answer.
  const handover =
    sessionTokens === undefined || config.fleet === undefined || config.fleet.peers.length === 0
      ? undefined
      : new SessionHandover(sessionTokens, config.fleet.peers, 500);
  // Set once the server exists (below); the load report is only asked for after that.
  let connections: ReceiverConnections | undefined;
  const load = (): EdgeLoadReport => {
    const why = notReady();
    return {
      ready: why === undefined,
      ...(why === undefined ? {} : { reason: why }),
      connections: connections?.size ?? 0,
      maxConnections: config.maxConnections,
      sentBytes: metrics.sentBytes,
      egressCapacityMbps: config.egressCapacityMbps ?? null,
      pid: process.pid,
      atMs: Date.now(),
    };
  };
  let lastCutWarn = 0;
  let cutSinceWarn = 0;
  const sendDeadlines = new SendDeadlines({
    minBytesPerSecond: (config.minReceiverMbps * 1e6) / 8,
    floorMs: config.sendDeadlineMinMs,
    now: () => performance.now(),
    onCut: (bytes, blockedMs) => {
      metrics.receiversCut.inc({ reason: 'slow' });
      // One line per 10 s however many: a flood of slow readers must not flood the log.
      cutSinceWarn += 1;
      const t = Date.now();
      if (t - lastCutWarn < 10_000) return;
      log.warn(
        { cut: cutSinceWarn, bytes, blockedMs: Math.round(blockedMs), minReceiverMbps: config.minReceiverMbps },
        'receivers slower than minReceiverMbps cut',
      );
      lastCutWarn = t;
      cutSinceWarn = 0;
    },
  });
  const ctx: EdgeContext = {
    config,
    log,
    now,
    events,
    metrics,
    cache,
    policy,
    streams,
    origins,
    rni,
    radio,
    sessions,
    sendDeadlines,
    fleet,
    sessionTokens,
    handover,
    rttFor,
    notReady,
    load,
    bug,
    box: options.box,
  };

  const route = createRouter(ctx);
  // Origin faults are answered where they happen; what reaches here is a bug: 500 and an event.
  const failed = (res: ServerResponse, e: unknown): void => {
    bug('request', e);
    sendError(res, 500, 'internal error', 'ERR_EDGE_INTERNAL');
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    try {
      // A promise only where the answer waits (createRouter).
      const answered = route(req, res);
      if (answered !== undefined) answered.catch((e: unknown) => failed(res, e));
    } catch (e) {
      failed(res, e);
    }
  };
  const made = createEdgeServer(config, config.tls === undefined ? undefined : readTls(config.tls), onRequest, log, (reason) =>
    metrics.refused.inc({ reason }),
  );
  const server: Server = made.server;
  connections = made.connections;

  // A warm backhaul connection and a current RTT per origin before (and between) streams.
  const probeOrigins = (): void => {
    for (const o of origins.values()) void o.client.probe();
  };
  const originProbe = config.originProbeMs > 0 ? setInterval(probeOrigins, config.originProbeMs) : undefined;
  originProbe?.unref();
  if (originProbe !== undefined) probeOrigins();

  const housekeeping = setInterval(() => {
    const t = now();
    sendDeadlines.sweep();
    cache.sweep();
    streams.sweepIdle(t);
    policy.sweep(t);
    metrics.cacheBytes.set(cache.bytes);
    metrics.streams.set(streams.size);
    metrics.sessions.set(policy.sessions);
    metrics.unconfirmedSessions.set(policy.unconfirmedSessions);
    metrics.connections.set(made.connections.size);
    metrics.clients.set(made.connections.clients);
    for (const s of streams.values()) {
      // Confirmed sessions only: a flood of made-up session ids is not an audience.
      const c = policy.confirmedCounts(s.key);
      metrics.receivers.set({ stream: s.key, group: 'hold-0' }, c['hold-0']);
      metrics.receivers.set({ stream: s.key, group: 'hold-x' }, c['hold-x']);
    }
    for (const o of origins.values()) {
      const r = rttFor(o.cfg.name);
      if (r !== undefined) metrics.rttMs.set({ origin: o.cfg.name }, r);
      metrics.originQueue.set({ origin: o.cfg.name }, o.client.queuedFetches);
    }
  }, 1000);
  housekeeping.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const url = `${config.tls === undefined ? 'http' : 'https'}://${host === '0.0.0.0' ? '127.0.0.1' : host}:${addr.port}`;
  if (rni !== undefined) {
    try {
      await rni.subscribe(`${url}${RNI_CALLBACK_PATH}`);
    } catch (e) {
      // Without RNI the edge still works from CMCD / the default; say so loudly.
      log.warn({ err: e }, 'RNI subscription failed; using CMCD and the default radio throughput');
      events.emit('error', { where: 'rni', error: e as Error });
    }
  }
  const reporter =
    config.collector === undefined
      ? undefined
      : new SessionReporter(sessions, {
          url: config.collector.url,
          label: config.collector.label ?? new URL(url).host,
          intervalMs: config.collector.intervalMs,
          now,
          log,
        });
  log.info({ url, origins: config.origins.map((o) => o.url), hold: config.hold }, 'edge listening');

  let closing: Promise<void> | undefined;
  return {
    url,
    events,
    metrics,
    config,
    load,
    stats() {
      let running = 0;
      let queued = 0;
      for (const o of origins.values()) {
        running += o.client.activeFetches;
        queued += o.client.queuedFetches;
      }
      let blocked = 0;
      for (const s of streams.values()) blocked += s.blockedCount;
      return {
        streams: streams.size,
        blocked,
        sessions: policy.sessions,
        cacheEntries: cache.size,
        cacheBytes: cache.bytes,
        transitBytes: cache.budget.held('transit'),
        pinnedBytes: cache.pinnedBytes(),
        sendTracked: sendDeadlines.size,
        segmentIndex: streams.indexSize,
        originFetchesRunning: running,
        originFetchesQueued: queued,
        connections: made.connections.size,
        radioReceivers: radio.size,
        clients: made.connections.clients,
      };
    },
    close() {
      closing ??= (async () => {
        const t0 = Date.now();
        draining = true;
        // Stop accepting; idle keep-alive connections go now, responses in progress may finish
        // within drainMs (a receiver mid-segment gets its segment, to its last byte), then what
        // is left is cut.
        const drained = await made.connections.drain(config.drainMs);
        clearInterval(housekeeping);
        // The last facts go to the collector before the edge forgets them.
        await reporter?.close();
        sessions.close();
        if (originProbe !== undefined) clearInterval(originProbe);
        streams.close();
        fleet?.close();
        await rni?.close();
        await Promise.all([...origins.values()].map((o) => o.client.close()));
        cache.clear();
        clock.close();
        log.info({ drainedMs: drained.drainedMs, cut: drained.cut, closedMs: Date.now() - t0 }, 'edge closed');
        events.removeAll();
      })();
      return closing;
    },
  };
}

/** TLS key and certificate, read once; a bad path names the flag that gave it. */
function readTls(tls: { keyPath: string; certPath: string }): { key: Buffer; cert: Buffer } {
  const read = (flag: string, path: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (e) {
      throw new EdgeError('ERR_EDGE_CONFIG_INVALID', `${flag}: cannot read ${path}: ${(e as Error).message}`, { option: flag });
    }
  };
  return { key: read('--tls-key (tls.keyPath)', tls.keyPath), cert: read('--tls-cert (tls.certPath)', tls.certPath) };
}
