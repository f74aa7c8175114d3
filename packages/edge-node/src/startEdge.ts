import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { SegmentCache } from './cache/SegmentCache.js';
import { serveEntry } from './cache/serveEntry.js';
import { CoarseClock } from './clock/CoarseClock.js';
import type { EdgeConfig, OriginConfig } from './config/EdgeConfig.js';
import { BackhaulSamples } from './core/BackhaulSamples.js';
import { decideHold, type HoldDecision } from './core/decideHold.js';
import type { ManifestView, SegmentRef } from './core/ManifestView.js';
import { EdgeEvents } from './events/EdgeEvents.js';
import { EdgeError, isEdgeError } from './errors/EdgeError.js';
import { isRejection, keepParams, parseTarget, type RequestTarget } from './http/parseTarget.js';
import { retryAfterFor, sendError, statusFor } from './http/sendError.js';
import { createEdgeServer } from './http/createEdgeServer.js';
import { EdgeMetrics } from './metrics/EdgeMetrics.js';
import { OriginClient, type OriginFetchReport } from './origin/OriginClient.js';
import { readCmcd } from './radio/readCmcd.js';
import { RNI_CALLBACK_PATH, RniSubscription } from './radio/RniSubscription.js';
import { SessionTable } from './session/SessionTable.js';
import { barePath, LiveStream } from './stream/LiveStream.js';

export interface RunningEdge {
  /** Base URL the edge listens on, e.g. http://127.0.0.1:40123 */
  url: string;
  events: EdgeEvents;
  metrics: EdgeMetrics;
  config: EdgeConfig;
  /** What the edge holds now: every bounded structure's size (operators, tests, the soak). */
  stats(): EdgeStats;
  /**
   * Stop accepting, let responses in progress finish within `drainMs`, then abort origin
   * fetches, stop pollers and timers, unsubscribe from RNI.
   */
  close(): Promise<void>;
}

export interface EdgeStats {
  streams: number;
  sessions: number;
  cacheEntries: number;
  cacheBytes: number;
  /** Bytes of entries with a receiver attached (never evictable while so). */
  pinnedBytes: number;
  segmentIndex: number;
  originFetchesRunning: number;
  originFetchesQueued: number;
  connections: number;
}

export interface StartEdgeOptions {
  /** Pino logger to use instead of creating one from config.logLevel. */
  logger?: Logger;
}

const MANIFEST_RE = /\.(m3u8|mpd)$/i;
const TOKEN_RE = /^[A-Za-z0-9_-]{1,64}$/;
/** A CMCD sid usable as it is in a response header and a log line (visible ASCII). */
const HEADER_SAFE_RE = /^[\x21-\x7e]{1,128}$/;
/** Paths of the origin a receiver may reach through the edge without a manifest naming them. */
const MEDIA_RE = /\.(m3u8|mpd|m4s|mp4|m4v|m4a|cmfv|cmfa|cmft|ts|aac|ac3|ec3|mp3|vtt|webvtt|key|jpg|jpeg|png)$/i;
const MIN_MEASURED_BYTES = 100_000;
const EXPOSED = 'Date, X-Ethle-Hold-Segments, X-Ethle-Hold-Seconds, X-Ethle-Session, X-Ethle-Cache, X-Ethle-Manifest-Stale, X-Ethle-Production-Start, X-Ethle-Production-End';
const CORS_ALLOW_HEADERS = 'CMCD-Request, CMCD-Object, CMCD-Status, CMCD-Session, Range';
/**
 * CORS headers (players run on other origins, e.g. the demo app). Sent only to requests with an
 * Origin header — browsers always send one cross-origin — so other clients get lean responses
 * (header validation is a large share of a small manifest response's cost in Node).
 */
const CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED } as const;
/** /metrics is for the operator's scraper, never for a page on another origin. */
const NO_CORS = {} as const;

interface Origin {
  cfg: OriginConfig;
  client: OriginClient;
  /** '' with a single origin, else '/{name}'. */
  prefix: string;
}

/** Start an ETHLE edge with a config from createEdgeConfig(). Resolves once it listens. */
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
  });
  const sessions = new SessionTable(config.sessionIdleMs, config.maxSessions);
  const streams = new Map<string, LiveStream>();
  /** `{origin}{path without query}` of every segment in an active stream's window → its stream. */
  const segmentIndex = new Map<string, LiveStream>();
  const identityParams = new Set(config.streamQueryParams);
  /** Stream x in auto mode: the largest eq. 2 answer seen (x never shrinks under receivers). */
  const autoHold = new Map<string, number>();
  const staleReported = new Map<string, EdgeError>();
  /** Steady-state segment fetch rates per origin, for the model's online check. */
  const measuredBackhaul = new BackhaulSamples();
  /**
   * Advertised bits/s of variant media playlists (stream key), read from multivariant playlists
   * served. Bounded: the oldest hints go first (a hint matters only until the variant's own
   * manifest or segments tell).
   */
  const variantBitrates = new Map<string, number>();
  const MAX_VARIANT_HINTS = 4 * config.maxStreams;
  const hintedViews = new WeakSet<ManifestView>();
  const rni = config.rni === undefined ? undefined : new RniSubscription(config.rni);
  // x is the operator's main figure: every change is logged with the rate it was decided on.
  events.on('hold-change', (e) => log.info({ stream: e.stream, hold: e.hold, backhaulMbps: +e.backhaulMbps.toFixed(2), reason: e.reason }, 'hold change'));
  // Per segment request: only when asked for (experiments use it to tell a stall's cause apart).
  if (log.isLevelEnabled('debug')) events.on('segment-request', (e) => log.debug(e, 'segment request'));
  const single = config.origins.length === 1;

  const onFetch = (r: OriginFetchReport): void => {
    metrics.originFetches.inc({ origin: r.origin, kind: r.kind, outcome: r.outcome });
    metrics.bytesIn.inc({ origin: r.origin }, r.bytes);
    // One flow's rate only: a segment fetched as parallel ranges says nothing about a single flow.
    if (r.outcome === 'ok' && r.kind !== 'manifest' && r.parts === 1 && r.bytes > 0 && r.totalMs > 0) {
      const measured = (r.bytes * 8) / (r.totalMs * 1000);
      // Small objects (init segments, audio) measure the RTT more than the throughput.
      if (r.bytes >= MIN_MEASURED_BYTES) {
        metrics.backhaulMbps.set({ origin: r.origin, source: 'measured' }, measured);
        const regime = measuredBackhaul.add(r.origin, measured, r.meanFlows ?? 1, originHold(r.origin));
        metrics.backhaulSegmentMbps.observe({ origin: r.origin, flows: regime }, measured);
      }
      const rtt = rttFor(r.origin);
      if (rtt !== undefined) {
        // th_bh depends on size and RTT only; segment length and radio are placeholders here.
        const model = modelDecision(rtt, r.bytes, 2, 1e6);
        if (model !== undefined) metrics.backhaulMbps.set({ origin: r.origin, source: 'model' }, model.backhaulMbps);
      }
    }
    if (r.outcome !== 'ok' && r.outcome !== 'closed') log.warn({ origin: r.origin, path: r.path, kind: r.kind, outcome: r.outcome, status: r.status }, 'origin fetch failed');
    events.emit('origin-fetch', r);
  };

  const origins = new Map<string, Origin>();
  for (const o of config.origins) {
    origins.set(o.name, {
      cfg: o,
      prefix: single ? '' : `/${o.name}`,
      client: new OriginClient({
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
      }),
    });
  }

  function rttFor(originName: string): number | undefined {
    if (config.backhaulRttMs !== undefined) return config.backhaulRttMs;
    return origins.get(originName)?.client.rtt.estimateMs(Date.now());
  }

  /** The largest x in force among an origin's streams (what its steady state runs in parallel). */
  function originHold(originName: string): number {
    if (typeof config.hold === 'number') return config.hold;
    let x = 0;
    for (const [key, h] of autoHold) if (key.startsWith(`${originName}/`)) x = Math.max(x, h);
    return x;
  }

  function modelDecision(rttMs: number, segmentBytes: number, segmentSeconds: number, ranMbps: number, measuredBackhaulMbps?: number): HoldDecision | undefined {
    try {
      return decideHold({ rttMs: Math.max(rttMs, 0.05), segmentBytes, segmentSeconds, ranMbps, initialWindow: config.initialWindow, maxHold: config.maxHold, measuredBackhaulMbps });
    } catch (e) {
      events.emit('error', { where: 'model', error: e as Error });
      return undefined;
    }
  }

  /**
   * s_seg for the model: the mean of measured segment sizes once there are some, before that what
   * the manifest advertises (EXT-X-BITRATE, the multivariant's BANDWIDTH, MPD @bandwidth) times the
   * segment length. Undefined when the manifest says nothing.
   */
  function segmentBytesEstimate(stream: LiveStream, view: ManifestView): number | undefined {
    const measured = stream.segmentBytes();
    if (measured !== undefined) return measured;
    const bps = view.bitrateHintBps ?? variantBitrates.get(stream.key);
    return bps === undefined || view.segmentSeconds <= 0 ? undefined : (bps * view.segmentSeconds) / 8;
  }

  /**
   * Auto mode, before any receiver decision: x from the model with what the first origin manifest
   * already tells (advertised bitrate, the manifest fetch's RTT). The planner's first round then
   * prefetches where a player shown this x will start; deciding it only at the first receiver
   * request — after the planner already fetched for another x — made the startup segment a miss.
   */
  function provisionalHold(origin: Origin, s: LiveStream): number {
    const view = s.version?.view;
    const rtt = rttFor(origin.cfg.name);
    const bytes = view === undefined ? undefined : segmentBytesEstimate(s, view);
    if (view === undefined || rtt === undefined || bytes === undefined) return 1;
    const d = modelDecision(rtt, bytes, view.segmentSeconds, config.defaultRanMbps, measuredBackhaul.median(origin.cfg.name));
    if (d === undefined) return 1;
    autoHold.set(s.key, d.hold);
    events.emit('hold-change', { stream: s.key, hold: d.hold, reason: `${d.reason} (before any receiver, advertised bitrate)`, backhaulMbps: d.backhaulMbps });
    return d.hold;
  }

  /** The stream of a manifest path and raw query: identity is the path plus streamQueryParams only. */
  function streamFor(origin: Origin, path: string, rawQuery: string): LiveStream {
    const identity = path + (rawQuery === '' || identityParams.size === 0 ? '' : keepParams(rawQuery, (n) => identityParams.has(n)));
    const key = `${origin.cfg.name}${identity}`;
    let s = streams.get(key);
    if (s === undefined) {
      if (streams.size >= config.maxStreams) throw new EdgeError('ERR_EDGE_OVERLOADED', `${config.maxStreams} streams active (maxStreams)`);
      path = identity;
      const stream: LiveStream = (s = new LiveStream({
        key,
        path,
        origin: origin.client,
        cache,
        now,
        maxParallel: config.maxHold,
        hold: () => (typeof config.hold === 'number' ? config.hold : autoHold.get(key) ?? provisionalHold(origin, stream)),
        edgePathPrefix: origin.prefix,
        bitrateHint: () => stream.version?.view.bitrateHintBps ?? variantBitrates.get(key),
        onManifestError: (e) => {
          metrics.manifestErrors.inc({ origin: origin.cfg.name, reason: e.code });
          // A stream that never had a manifest is a request for a path the origin doesn't have
          // (or junk): not worth a warning each, or junk requests flood the log.
          if (stream.version === undefined) log.debug({ stream: key, code: e.code, msg2: e.message }, 'origin manifest failed (new stream)');
          else log.warn({ stream: key, code: e.code, msg2: e.message }, 'origin manifest failed');
        },
        onLead: (lead) => metrics.lead.set({ stream: key }, lead),
        onWarning: (msg, details) => log.warn({ stream: key, ...details }, msg),
        onPlanError: (error) => {
          events.emit('error', { where: 'planner', error });
          log.error({ stream: key, err: error }, 'planning failed');
        },
        onWindow: (added, removed) => {
          const name = origin.cfg.name;
          for (const p of removed) if (segmentIndex.get(`${name}${p}`) === stream) segmentIndex.delete(`${name}${p}`);
          for (const p of added) segmentIndex.set(`${name}${p}`, stream);
        },
        minFetchDeadlineMs: config.originHeadersTimeoutMs,
      }));
      streams.set(key, s);
      events.emit('stream-start', { stream: key });
      log.info({ stream: key }, 'stream active');
      void s.start();
    }
    return s;
  }

  // ---- request handling -------------------------------------------------------------------

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? '';
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...CORS, 'access-control-allow-methods': 'GET, HEAD', 'access-control-allow-headers': CORS_ALLOW_HEADERS, 'access-control-max-age': '600' });
      res.end();
      return;
    }
    const target = parseTarget(req.url, config.maxUrlLength);
    if (isRejection(target)) {
      metrics.countRequest('rejected', target.status);
      sendError(res, target.status, target.message);
      return;
    }
    if (method === 'POST' && target.path === RNI_CALLBACK_PATH && rni !== undefined) {
      await handleRniNotification(req, res);
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      metrics.countRequest('rejected', 405);
      sendError(res, 405, `method ${method.slice(0, 16)} not allowed`);
      return;
    }
    if (target.path === '/healthz') {
      res.writeHead(200, { ...CORS, 'content-type': 'text/plain', 'cache-control': 'no-store' }).end('ok\n');
      return;
    }
    if (target.path === '/metrics') {
      const body = await metrics.registry.metrics();
      res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(body);
      return;
    }
    if (target.path.startsWith('/_ethle/')) {
      sendError(res, 404, 'not found');
      return;
    }
    let origin: Origin | undefined;
    let originPath = target.path;
    if (single) {
      origin = origins.values().next().value;
    } else {
      const slash = target.path.indexOf('/', 1);
      const name = target.path.slice(1, slash < 0 ? undefined : slash);
      origin = origins.get(name);
      originPath = slash < 0 ? '/' : target.path.slice(slash);
    }
    if (origin === undefined) {
      metrics.countRequest('rejected', 404);
      sendError(res, 404, 'no configured origin for this path');
      return;
    }
    if (MANIFEST_RE.test(originPath)) await handleManifest(req, res, origin, originPath, target);
    else if (MEDIA_RE.test(originPath) || segmentIndex.has(`${origin.cfg.name}${originPath}`)) handleSegment(req, res, origin, originPath, target.forwardQuery, method === 'HEAD');
    else {
      // Only media reaches the origin through the edge: its other paths (stats, admin, reset
      // switches behind a GET) are not the receivers' business.
      metrics.countRequest('rejected', 404);
      sendError(res, 404, 'not a media path of a configured origin');
    }
  }

  async function handleManifest(req: IncomingMessage, res: ServerResponse, origin: Origin, originPath: string, target: RequestTarget): Promise<void> {
    let stream: LiveStream;
    try {
      stream = streamFor(origin, originPath, rawQueryOf(target));
    } catch (e) {
      const err = e as EdgeError;
      metrics.countRequest('manifest', 503);
      sendError(res, 503, err.message, err.code, '5');
      return;
    }
    stream.lastActivityMs = now();
    // Hot path: once a version exists this handler does not await anything.
    let version = stream.version;
    if (version === undefined) try {
      version = await stream.ready();
    } catch (e) {
      const err = isEdgeError(e) ? e : new EdgeError('ERR_EDGE_ORIGIN_UNREACHABLE', String(e));
      // A stream that never had a manifest is dropped at once: requests for made-up paths must
      // not leave pollers behind.
      if (stream.version === undefined && streams.get(stream.key) === stream) {
        stream.close();
        streams.delete(stream.key);
        metrics.dropStream(stream.key);
      }
      metrics.countRequest('manifest', statusFor(err));
      sendError(res, statusFor(err), `origin manifest unavailable: ${err.code}`, err.code, retryAfterFor(err));
      return;
    }
    const headers: Record<string, string | number> = {
      ...(req.headers.origin === undefined ? NO_CORS : CORS),
      'content-type': version.view.kind === 'dash' ? 'application/dash+xml' : 'application/vnd.apple.mpegurl',
      'cache-control': 'no-cache',
    };
    // A broken origin manifest: serve the last good version for a bounded time, and say so.
    if (stream.lastError !== undefined) {
      const age = now() - version.fetchedAtMs;
      if (age > config.manifestStaleMs) {
        const err = stream.lastError;
        metrics.countRequest('manifest', statusFor(err));
        sendError(res, statusFor(err), `origin manifest broken for ${Math.round(age / 1000)} s: ${err.code}`, err.code, retryAfterFor(err));
        return;
      }
      headers['x-ethle-manifest-stale'] = (age / 1000).toFixed(1);
      metrics.staleManifests.inc({ stream: stream.key });
      // One event per failure episode, not per receiver request.
      if (staleReported.get(stream.key) !== stream.lastError) {
        staleReported.set(stream.key, stream.lastError);
        events.emit('manifest-stale', { stream: stream.key, ageMs: age, error: stream.lastError.code });
      }
    }

    const cmcd = readCmcd(target.query, req.headers);
    const tokenParam = target.query.get('ethle_session');
    const token = tokenParam !== null && TOKEN_RE.test(tokenParam) ? tokenParam : undefined;

    if (version.view.kind === 'hls-multivariant') {
      if (!hintedViews.has(version.view)) {
        hintedViews.add(version.view);
        for (const v of version.view.variantBitrates ?? []) {
          const k = `${origin.cfg.name}${v.path}`;
          variantBitrates.delete(k);
          variantBitrates.set(k, v.bps);
          if (variantBitrates.size > MAX_VARIANT_HINTS) variantBitrates.delete(variantBitrates.keys().next().value!);
        }
      }
      // Variant URIs carry a session token so each receiver's media playlist requests are
      // recognisable; issued here when the receiver has none (cheap: multivariant is fetched once).
      const session = token ?? safeSid(cmcd.sid) ?? randomBytes(9).toString('base64url');
      const held = stream.held(version, 0, session);
      headers['x-ethle-session'] = session;
      headers['x-ethle-hold-segments'] = '0';
      headers['x-ethle-hold-seconds'] = '0';
      return sendText(res, req, 200, headers, held.body, 'manifest');
    }

    const ip = clientIp(req);
    const session = token ?? safeSid(cmcd.sid) ?? `ip-${ip}`;
    headers['x-ethle-session'] = session;
    let x: number;
    if (typeof config.hold === 'number') {
      x = config.hold;
      // Forced x: every receiver is in the group its x means (counted in ethle_receivers).
      sessions.assign(stream.key, session, x === 0, now());
    } else {
      const ranMbps = rni?.lookup(ip, now()) ?? cmcd.mtpMbps ?? config.defaultRanMbps;
      const segSeconds = version.view.segmentSeconds;
      // A manifest that advertises no bitrate: wait for the first segment's Content-Length (one
      // backhaul round trip, started by the planner's first round).
      const bytes = segmentBytesEstimate(stream, version.view) ?? (await stream.firstSegmentBytes(segSeconds * 1000));
      const rtt = rttFor(origin.cfg.name);
      const d = bytes === undefined || rtt === undefined ? undefined : modelDecision(rtt, bytes, segSeconds, ranMbps, measuredBackhaul.median(origin.cfg.name));
      if (d === undefined) {
        // No context yet (no segment size or RTT): serve the current stream x, the safe side, but
        // do not put the session in a group on no evidence (hold-x would be for good).
        x = autoHold.get(stream.key) ?? 1;
      } else {
        const prev = autoHold.get(stream.key);
        if (prev === undefined || d.hold > prev) {
          autoHold.set(stream.key, d.hold);
          events.emit('hold-change', { stream: stream.key, hold: d.hold, reason: d.reason, backhaulMbps: d.backhaulMbps });
        }
        if (!d.eq3) {
          const bitrateMbps = ((bytes ?? 0) * 8) / segSeconds / 1e6;
          if (config.ranFailAction !== 'pass-through') {
            const location = origin.client.absolute(originPath + target.forwardQuery);
            metrics.redirects.inc();
            events.emit('redirect', { session, stream: stream.key, location, ranMbps, bitrateMbps });
            metrics.countRequest('manifest', config.ranFailAction === 'redirect-302' ? 302 : 307);
            res.writeHead(config.ranFailAction === 'redirect-302' ? 302 : 307, { ...CORS, location, 'cache-control': 'no-store', 'content-length': 0 }).end();
            return;
          }
          x = 0; // pass through unheld: ETHLE does not apply (paper III-B)
        } else {
          const a = sessions.assign(stream.key, session, d.eq1, now());
          if (a.from !== a.group) {
            if (a.from !== undefined) metrics.groupMoves.inc();
            events.emit('session-group', { session, stream: stream.key, from: a.from, to: a.group, ranMbps });
          }
          x = a.group === 'hold-0' ? 0 : autoHold.get(stream.key) ?? d.hold;
        }
      }
    }
    const held = stream.held(version, x, undefined);
    headers['x-ethle-hold-segments'] = String(held.holdSegments);
    headers['x-ethle-hold-seconds'] = String(Math.round(held.holdSeconds * 1000) / 1000);
    if (held.fresh) metrics.hold.set({ stream: stream.key, group: typeof config.hold === 'number' || x > 0 ? 'hold-x' : 'hold-0' }, held.holdSegments);
    sendText(res, req, 200, headers, held.body, 'manifest');
  }

  /** Unplanned objects (init segments, segments out of every window): one deadline for all. */
  const UNPLANNED = '(unplanned)';
  const UNPLANNED_DEADLINE_MS = Math.max(config.originHeadersTimeoutMs, 60_000);

  function handleSegment(req: IncomingMessage, res: ServerResponse, origin: Origin, path: string, forwardQuery: string, head: boolean): void {
    const owner = segmentIndex.get(`${origin.cfg.name}${path}`);
    const seg = owner?.segmentFor(path);
    // A segment of an active stream is one object whatever query a receiver adds (a cache
    // buster, a per-viewer token): the URI the manifest lists, fetched once.
    const fetchPath = seg !== undefined ? seg.path : path + forwardQuery;
    const key = `${origin.cfg.name}${fetchPath}`;
    let entry = cache.get(key);
    let result: 'hit' | 'coalesced' | 'miss';
    if (entry !== undefined) {
      result = entry.state === 'complete' ? 'hit' : 'coalesced';
      if (entry.state === 'pending') origin.client.promote(key);
    } else {
      result = 'miss';
      const e = (entry = cache.create(key));
      // Nobody else will read an object no stream plans: stop fetching it when its receiver leaves
      // (a `Range: bytes=0-99` probe of a 61 MB segment, a query variant, an aborted request).
      e.cancelWhenOrphaned = seg === undefined;
      const split = owner !== undefined && seg !== undefined ? owner.splitFor(seg) : undefined;
      // A receiver waits for a segment the edge does not have: fetch it as parallel ranges.
      origin.client.fetchInto(fetchPath, e, {
        priority: 'player',
        group: owner?.key ?? UNPLANNED,
        deadlineMs: owner !== undefined && seg !== undefined ? owner.deadlineMs(seg.durationSeconds) : UNPLANNED_DEADLINE_MS,
        ...(split === undefined ? {} : { split }),
      });
      if (owner !== undefined && seg !== undefined) {
        e.whenHeaders().then(
          () => {
            if (e.expectedBytes !== undefined) owner.noteSize(seg.track, e.expectedBytes);
          },
          () => undefined,
        );
      }
    }
    if (owner !== undefined && seg !== undefined) owner.noteRequest(seg);
    metrics.cacheRequests.inc({ result });
    events.emit('segment-request', { path: fetchPath, result, bytesAtEdge: entry.bytes });
    const cors = req.headers.origin !== undefined;
    if (entry.state === 'complete' && req.headers.range === undefined && !head) {
      // Hot path: a cached segment goes out as the Buffers undici delivered, no copy, no await.
      res.writeHead(200, entry.responseHeaders(result, cors));
      const chunks = entry.chunks;
      if (chunks.length === 1) res.end(chunks[0]);
      else {
        res.cork();
        for (const c of chunks) res.write(c);
        res.end();
      }
      metrics.bytesOut.inc(entry.bytes);
      metrics.countRequest('segment', 200);
      return;
    }
    const served = entry;
    void serveEntry(served, req, res, {
      head,
      headers: () => served.responseHeaders(result, cors),
      onError: (err) => sendError(res, statusFor(err), `origin fetch failed: ${err.code}`, err.code, retryAfterFor(err)),
    }).then(({ status, bytes }) => {
      // 499: the receiver left before the edge could answer (nginx's convention).
      metrics.countRequest('segment', status === 0 ? 499 : status === 200 || status === 206 || status === 416 ? status : statusFor(served.error!));
      metrics.bytesOut.inc(bytes);
    });
  }

  async function handleRniNotification(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req as AsyncIterable<Buffer>) {
      size += c.length;
      if (size > 65_536) {
        sendError(res, 413, 'notification too large');
        return;
      }
      chunks.push(c);
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      sendError(res, 400, 'notification is not JSON');
      return;
    }
    if (!rni!.handleNotification(body, now())) {
      sendError(res, 400, 'not a MeasRepUeNotification with associateId, rsrp and rsrq');
      return;
    }
    res.writeHead(204).end();
  }

  function sendText(res: ServerResponse, req: IncomingMessage, status: number, headers: Record<string, string | number>, body: Buffer, kind: string): void {
    metrics.countRequest(kind, status);
    headers['content-length'] = body.length;
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  // ---- server and housekeeping ---------------------------------------------------------------

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((e: unknown) => {
      events.emit('error', { where: 'request', error: e as Error });
      log.error({ err: e }, 'request failed');
      sendError(res, 500, 'internal error');
    });
  };
  const server: Server = createEdgeServer(config, config.tls === undefined ? undefined : readTls(config.tls), onRequest, log, (reason) => metrics.refused.inc({ reason }));

  // A warm backhaul connection and a current RTT per origin before (and between) streams.
  const probeOrigins = (): void => {
    for (const o of origins.values()) void o.client.probe();
  };
  let openConnections = 0;
  server.on('connection', (socket) => {
    openConnections += 1;
    socket.once('close', () => (openConnections -= 1));
  });

  const originProbe = config.originProbeMs > 0 ? setInterval(probeOrigins, config.originProbeMs) : undefined;
  originProbe?.unref();
  if (originProbe !== undefined) probeOrigins();

  const housekeeping = setInterval(() => {
    const t = now();
    cache.sweep();
    metrics.cacheBytes.set(cache.bytes);
    for (const [key, s] of streams) {
      if (t - s.lastActivityMs > config.streamIdleMs) {
        s.close();
        streams.delete(key);
        autoHold.delete(key);
        staleReported.delete(key);
        sessions.dropStream(key);
        metrics.dropStream(key);
        events.emit('stream-idle', { stream: key });
        log.info({ stream: key }, 'stream idle');
      } else {
        const c = sessions.counts(key);
        metrics.receivers.set({ stream: key, group: 'hold-0' }, c['hold-0']);
        metrics.receivers.set({ stream: key, group: 'hold-x' }, c['hold-x']);
      }
    }
    sessions.sweep(t);
    metrics.streams.set(streams.size);
    metrics.sessions.set(sessions.size);
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
  log.info({ url, origins: config.origins.map((o) => o.url), hold: config.hold }, 'edge listening');

  let closing: Promise<void> | undefined;
  return {
    url,
    events,
    metrics,
    config,
    stats() {
      let running = 0;
      let queued = 0;
      for (const o of origins.values()) {
        running += o.client.activeFetches;
        queued += o.client.queuedFetches;
      }
      return {
        streams: streams.size,
        sessions: sessions.size,
        cacheEntries: cache.size,
        cacheBytes: cache.bytes,
        pinnedBytes: cache.pinnedBytes(),
        segmentIndex: segmentIndex.size,
        originFetchesRunning: running,
        originFetchesQueued: queued,
        connections: openConnections,
      };
    },
    close() {
      closing ??= (async () => {
        const t0 = Date.now();
        // Stop accepting; idle keep-alive connections go now, responses in progress may finish
        // within drainMs (a receiver mid-segment gets its segment), then what is left is cut.
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
        const cut = setTimeout(() => server.closeAllConnections(), config.drainMs);
        await closed;
        clearInterval(idleSweep);
        clearTimeout(cut);
        clearInterval(housekeeping);
        if (originProbe !== undefined) clearInterval(originProbe);
        for (const s of streams.values()) s.close();
        streams.clear();
        segmentIndex.clear();
        await rni?.close();
        await Promise.all([...origins.values()].map((o) => o.client.close()));
        cache.clear();
        clock.close();
        log.info({ drainedMs: Date.now() - t0 }, 'edge closed');
        events.removeAll();
      })();
      return closing;
    },
  };
}

/** The raw query of a target without the edge's own parameters, without its '?'. */
function rawQueryOf(target: RequestTarget): string {
  return target.forwardQuery === '' ? '' : target.forwardQuery.slice(1);
}

/**
 * A CMCD session id as a session key: as it is when it is plain visible ASCII (it is echoed in
 * X-Ethle-Session and logs), else a digest of it — a header with other characters made Node
 * throw and the receiver got a 500.
 */
function safeSid(sid: string | undefined): string | undefined {
  if (sid === undefined || HEADER_SAFE_RE.test(sid)) return sid;
  return `sid-${createHash('sha256').update(sid).digest('base64url').slice(0, 22)}`;
}

/** TLS key and certificate, read once; a bad path names the option that gave it. */
function readTls(tls: { keyPath: string; certPath: string }): { key: Buffer; cert: Buffer } {
  const read = (option: string, path: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (e) {
      throw new EdgeError('ERR_EDGE_CONFIG_INVALID', `${option} (--${option === 'tls.keyPath' ? 'tls-key' : 'tls-cert'}): cannot read ${path}: ${(e as Error).message}`, { option });
    }
  };
  return { key: read('tls.keyPath', tls.keyPath), cert: read('tls.certPath', tls.certPath) };
}

function clientIp(req: IncomingMessage): string {
  const a = req.socket.remoteAddress ?? 'unknown';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}
