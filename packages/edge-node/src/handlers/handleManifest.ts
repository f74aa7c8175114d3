import { addDashSteering, addHlsSteering, chooseRadioEstimate, decidePartHold, isEthleError, planBlockingReload, readHlsDirectives, streamTag, type HlsDirectives, type ManifestView, type RadioEstimate, type SessionClaims } from '@ethle/core';
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EdgeContext, Origin } from '../EdgeContext.js';
import { isEdgeError, type EdgeError } from '../errors/EdgeError.js';
import type { EdgeErrorCode } from '../errors/EdgeErrorCode.js';
import { CORS, HEADERS, NO_CORS } from '../http/HEADERS.js';
import type { RequestTarget } from '../http/parseTarget.js';
import { retryAfterFor, sendError, statusFor } from '../http/sendError.js';
import { readCmcd } from '../radio/readCmcd.js';
import { receiverKey } from '../radio/receiverKey.js';
import { ageSeconds, cmsdDynamic, cmsdStatic } from '../http/cmsdHeaders.js';
import { manifestFreshness } from './manifestFreshness.js';
import type { LiveStream } from '../stream/LiveStream.js';

const TOKEN_RE = /^[A-Za-z0-9_-]{1,64}$/;
/** A fixed x needs no radio estimate (hot path: nothing is measured or chosen per request). */
const FIXED_HOLD_RADIO = chooseRadioEstimate({ segmentBytes: 1, segmentsDownloaded: 0, defaultBps: 1 });
/** A CMCD sid usable as it is in a response header and a log line (visible ASCII). */
const HEADER_SAFE_RE = /^[\x21-\x7e]{1,128}$/;

/**
 * Manifest requests: the held playlist/MPD of the request's stream for the receiver's policy
 * group, the last good version (marked stale) while the origin's is broken, or a redirect to the
 * origin when the receiver's radio is slower than the stream (eq. 3). Hot path: once the stream
 * has a version and a decision needs no first-segment size, nothing here awaits.
 */
export function createManifestHandler(ctx: EdgeContext) {
  const { config, metrics, events, policy, streams } = ctx;
  /** One 'manifest-stale' event per failure episode and stream, not per receiver request. */
  const staleReported = new WeakMap<LiveStream, string>();
  const edgeId = config.fleet?.pathway ?? 'ethle-edge';

  return async function handleManifest(req: IncomingMessage, res: ServerResponse, origin: Origin, originPath: string, target: RequestTarget): Promise<void> {
    let stream: LiveStream;
    try {
      stream = streams.forManifest(origin, originPath, target.forwardQuery === '' ? '' : target.forwardQuery.slice(1));
    } catch (e) {
      if (!isEdgeError(e)) throw e;
      metrics.countRequest('manifest', 503);
      sendError(res, 503, e.message, e.code, '5');
      return;
    }
    stream.lastActivityMs = ctx.now();
    let version = stream.version;
    if (version === undefined) {
      try {
        version = await stream.ready();
      } catch (e) {
        // Only origin faults are origin errors; anything else is a bug and surfaces as a 500.
        if (!isEdgeError(e)) throw e;
        streams.dropFailed(stream);
        metrics.countRequest('manifest', statusFor(e));
        sendError(res, statusFor(e), `origin manifest unavailable: ${e.code}`, e.code, retryAfterFor(e));
        return;
      }
    }
    const headers: Record<string, string | number> = {
      ...(config.role === 'parent' ? { [HEADERS.role]: 'parent', ...upstreamRtt(ctx.rttFor(origin.cfg.name)) } : {}),
      ...(req.headers.origin === undefined ? NO_CORS : CORS),
      'content-type': version.view.kind === 'dash' ? 'application/dash+xml' : 'application/vnd.apple.mpegurl',
      'cache-control': 'no-cache',
      // Age: how long ago the edge got this version from the origin (hls.js reads it of
      // playlists); CMSD: a live manifest of this format, from this edge, with its throughput
      // estimate for the receiver once it has one.
      age: ageSeconds(version.fetchedAtMs, ctx.now()),
      'cmsd-static': cmsdStatic('manifest', version.view.kind === 'dash' ? 'dash' : 'hls'),
      'cmsd-dynamic': cmsdDynamic(edgeId, ctx.radio.estimate(receiverKey(req, target.query))?.mbps),
    };
    // A broken or silent origin manifest: serve the last good version for a bounded time, and say so.
    const fresh = manifestFreshness({ nowMs: ctx.now(), fetchedAtMs: version.fetchedAtMs, lastError: stream.lastError, waitingSinceMs: stream.originWaitingSinceMs, segmentSeconds: version.view.segmentSeconds, multivariant: version.view.kind === 'hls-multivariant', manifestStaleMs: config.manifestStaleMs });
    if (fresh.state === 'broken') {
      metrics.countRequest('manifest', statusFor(fresh.error));
      sendError(res, statusFor(fresh.error), `origin manifest broken for ${Math.round(fresh.ageMs / 1000)} s: ${fresh.error.code}`, fresh.error.code, retryAfterFor(fresh.error));
      return;
    }
    if (fresh.state === 'stale') {
      headers[HEADERS.manifestStale] = (fresh.ageMs / 1000).toFixed(1);
      metrics.staleManifests.inc({ stream: stream.key });
      // One event per episode: the version's fetch time and the reason name it.
      const episode = `${version.fetchedAtMs}|${fresh.code}`;
      if (staleReported.get(stream) !== episode) {
        staleReported.set(stream, episode);
        events.emit('manifest-stale', { stream: stream.key, ageMs: fresh.ageMs, error: fresh.code });
      }
    }

    const cmcd = readCmcd(target.query, req.headers);
    const tokenParam = target.query.get('ethle_session');
    let token: string | undefined;
    /** A session handed over from another edge of the fleet: its state, when the token may be adopted. */
    let handed: SessionClaims | undefined;
    /** Who issued the receiver's signed token (a peer to ask for its state), if it brought one. */
    let issuer: string | undefined;
    if (tokenParam !== null && ctx.sessionTokens !== undefined && tokenParam.startsWith('e1.')) {
      // A signed token: checked once, then remembered (hot path: no await on a reload). A forged
      // or malformed one is ignored — a fresh session, never an error to the player.
      let c = ctx.sessionTokens.peek(tokenParam, ctx.now());
      if (c === undefined) c = await ctx.sessionTokens.check(tokenParam, ctx.now());
      if (c !== null) {
        token = c.sid;
        handed = c.claims;
        issuer = c.issuer;
      }
    } else if (tokenParam !== null && TOKEN_RE.test(tokenParam)) token = tokenParam;

    if (version.view.kind === 'hls-multivariant') {
      // Variant URIs carry a session token so each receiver's media playlist requests are
      // recognisable; issued here when the receiver has none (cheap: multivariant is fetched once).
      const session = token ?? safeSid(cmcd.sid) ?? randomBytes(9).toString('base64url');
      // With a fleet secret the variant URIs carry a signed token of the session (its id, no
      // stream state yet), so a receiver that moves keeps its id at the next edge.
      const uriToken = (await signedToken(ctx, { sid: session, stream: '', group: undefined, x: 0, requests: 0, radioBps: undefined })) ?? session;
      const held = stream.held(version, 0, uriToken);
      headers[HEADERS.session] = session;
      headers[HEADERS.holdSegments] = '0';
      headers[HEADERS.holdSeconds] = '0';
      // In a fleet: the steering server and this edge's pathway, so players fail over to peers.
      const body = ctx.fleet === undefined ? held.body : Buffer.from(addHlsSteering(held.text, { serverUri: ctx.fleet.serverUri, pathwayId: ctx.fleet.pathway }), 'utf8');
      return sendText(res, req, headers, body, metrics);
    }

    const ip = clientIp(req);
    const session = token ?? safeSid(cmcd.sid) ?? `ip-${ip}`;
    headers[HEADERS.session] = session;
    // Low-latency streams with --hold-parts: N parts for every receiver of the stream (fixed, or
    // 'auto': the stream's N from the part model, rising only), LL features answered by the edge.
    if (config.holdParts !== undefined && version.view.holdParts !== undefined) {
      const n = stream.upstreamHolds ? 0 : config.holdParts === 'auto' ? await partHold(stream, version.view, origin.cfg.name) : config.holdParts;
      return serveParts(req, res, stream, version, n, target.query, headers);
    }
    // A fixed x needs no context (hot path): the policy reads only the stream.
    let sctx = policy.config.hold === 'auto' ? streams.contextOf(stream, version.view, origin.cfg.name) : { stream: stream.key, origin: origin.cfg.name, segmentBytes: undefined, segmentSeconds: version.view.segmentSeconds, rttMs: undefined };
    let radio = FIXED_HOLD_RADIO;
    if (policy.config.hold === 'auto') {
      // A manifest that advertises no bitrate: wait for the first segment's Content-Length (one
      // backhaul round trip, started by the planner's first round).
      if (sctx.segmentBytes === undefined) sctx = { ...sctx, segmentBytes: await stream.prefetcher.firstSegmentBytes(version.view.segmentSeconds * 1000) };
      // th_ran, best source first: RNI, the edge's own measurement of this receiver, credible CMCD, the default.
      const rniMbps = ctx.rni?.lookup(ip, ctx.now());
      const measured = ctx.radio.estimate(receiverKey(req, target.query));
      radio = chooseRadioEstimate({
        ...(rniMbps === undefined ? {} : { rniBps: rniMbps * 1e6 }),
        ...(measured === undefined ? {} : { measured: { bps: measured.mbps * 1e6, bytes: measured.bytes } }),
        segmentBytes: sctx.segmentBytes ?? 1,
        cmcd: { ...(cmcd.mtpMbps === undefined ? {} : { mtpKbps: cmcd.mtpMbps * 1000 }), ...(cmcd.blMs === undefined ? {} : { blMs: cmcd.blMs }) },
        segmentsDownloaded: measured?.samples ?? 0,
        defaultBps: config.defaultRanMbps * 1e6,
      });
    }
    const ranMbps = radio.bps / 1e6;
    // A token without state for this stream (hls.js: the multivariant playlist's), issued by a
    // live peer, for a session unknown here: ask that peer for the session's state (handover).
    if (issuer !== undefined && ctx.handover !== undefined && handed?.stream !== streamTag(stream.key) && ctx.handover.canPull(tokenParam!, issuer) && policy.sessionState(stream.key, session) === undefined) {
      handed = (await ctx.handover.pull(tokenParam!, issuer, stream.key, ctx.now)) ?? handed;
    }
    // Handed over from another edge (a valid, unexpired token for this stream, a session unknown
    // here): filed with its group, requests, last measurement and x before the decision.
    if (handed !== undefined && handed.stream === streamTag(stream.key) && policy.adopt(stream.key, session, { group: handed.group, requests: handed.requests, estimate: handedEstimate(handed), x: handed.x }, ctx.now())) {
      events.emit('session-adopted', { session, stream: stream.key, from: handed.issuer, group: handed.group, x: handed.x, requests: handed.requests });
    }
    const d = policy.receiver(sctx, session, radio, ctx.now());
    let x: number;
    if (d === undefined) {
      // No context yet (no segment size or RTT): serve the stream's current x, the safe side, but
      // do not put the session in a group on no evidence (hold-x would be for good).
      x = policy.streamHold(stream.key);
    } else if (d.kind === 'redirect') {
      const status = config.ranFailAction === 'redirect-302' ? 302 : 307;
      // The origin as receivers reach it, which need not be the address the edge fetches from.
      const location = `${origin.cfg.publicUrl}${originPath}${target.forwardQuery}`;
      metrics.redirects.inc();
      // A receiver leaves the edge for good: say on what evidence.
      ctx.log.info({ session, stream: stream.key, ranMbps: d.ranMbps, bitrateMbps: d.bitrateMbps, evidence: d.evidence.map((e) => ({ mbps: e.bps / 1e6, source: e.source })) }, 'receiver redirected to the origin (eq. 3)');
      events.emit('redirect', { session, stream: stream.key, location, ranMbps: d.ranMbps, bitrateMbps: d.bitrateMbps });
      metrics.countRequest('manifest', status);
      res.writeHead(status, { ...CORS, location, 'cache-control': 'no-store', 'content-length': 0 }).end();
      return;
    } else {
      x = d.x;
      if (d.kind === 'hold' && d.group !== undefined && d.from !== d.group && policy.config.hold === 'auto') {
        if (d.from !== undefined) metrics.groupMoves.inc();
        events.emit('session-group', { session, stream: stream.key, from: d.from, to: d.group, ranMbps });
      }
    }
    if (stream.upstreamHolds) x = 0;
    events.emit('manifest-request', { session, stream: stream.key, hold: x, group: policy.sessionState(stream.key, session)?.group });
    const held = stream.held(version, x, undefined);
    headers[HEADERS.holdSegments] = String(held.holdSegments);
    headers[HEADERS.holdSeconds] = String(Math.round(held.holdSeconds * 1000) / 1000);
    if (held.fresh) metrics.hold.set({ stream: stream.key, group: typeof config.hold === 'number' || x > 0 ? 'hold-x' : 'hold-0' }, held.holdSegments);
    let sessionToken: string | undefined;
    if (ctx.sessionTokens !== undefined) {
      const st = policy.sessionState(stream.key, session);
      sessionToken = await signedToken(ctx, { sid: session, stream: streamTag(stream.key), group: st?.group, x: held.holdSegments, requests: st?.requests ?? 0, radioBps: st?.estimate?.bps });
      if (sessionToken !== undefined) headers[HEADERS.sessionToken] = sessionToken;
    }
    sendText(res, req, headers, ctx.fleet !== undefined && version.view.kind === 'dash' ? steeredMpd(ctx, held, origin.prefix + originPath, sessionToken) : held.body, metrics);
  };

  /**
   * A low-latency manifest held in n parts. LL-HLS: a blocking reload (`_HLS_msn`/`_HLS_part`) is
   * judged against the held playlist (core planBlockingReload) and parked until the stream's own
   * origin poll brings a version whose held view lists it — at most 3 target durations, then 503
   * (RFC 8216bis §6.2.5.2); `_HLS_skip` gets a delta update of the held text. Nothing a receiver
   * asks is forwarded: the origin sees one poll per stream.
   */
  async function serveParts(req: IncomingMessage, res: ServerResponse, stream: LiveStream, version: NonNullable<LiveStream['version']>, n: number, query: URLSearchParams, headers: Record<string, string | number>): Promise<void> {
    let d: HlsDirectives = {};
    if (version.view.kind === 'hls-media') {
      const verdict = readHlsDirectives((k) => query.get(k));
      if (!verdict.ok) return refuse(res, 400, `bad LL-HLS directive (${verdict.reason})`, 'ERR_EDGE_BLOCKING_BAD_REQUEST');
      d = verdict.directives;
    }
    let held = stream.heldParts(version, n)!;
    if (d.msn !== undefined && held.position !== undefined) {
      const want = { msn: d.msn, ...(d.part === undefined ? {} : { part: d.part }) };
      const plan = planBlockingReload(want, held.position, 0);
      if (plan.action === 'reject') return refuse(res, 400, `_HLS_msn=${d.msn}${d.part === undefined ? '' : `&_HLS_part=${d.part}`} is too far ahead (${plan.reason})`, 'ERR_EDGE_BLOCKING_BAD_REQUEST');
      if (plan.action === 'wait') {
        const gone = new AbortController();
        const onClose = (): void => gone.abort();
        res.once('close', onClose);
        let v: typeof version | undefined;
        try {
          v = await stream.waitFor((cand) => {
            const p = stream.heldParts(cand, n)?.position;
            return p === undefined || planBlockingReload(want, p, 0).action !== 'wait';
          }, plan.timeoutSeconds * 1000, gone.signal);
        } catch (e) {
          res.off('close', onClose);
          if (!isEdgeError(e)) throw e;
          return refuse(res, statusFor(e), e.message, e.code, '1');
        }
        res.off('close', onClose);
        if (res.destroyed) return void metrics.countRequest('manifest', 499);
        if (v === undefined) return refuse(res, 503, `_HLS_msn=${d.msn}${d.part === undefined ? '' : `&_HLS_part=${d.part}`} not in the playlist within ${plan.timeoutSeconds} s`, 'ERR_EDGE_BLOCKING_TIMEOUT');
        held = stream.heldParts(v, n)!;
      }
    }
    headers[HEADERS.holdSegments] = String(held.holdSegments);
    headers[HEADERS.holdSeconds] = String(Math.round(held.holdSeconds * 1000) / 1000);
    headers[HEADERS.holdParts] = String(held.holdParts ?? 0);
    if (held.fresh) metrics.hold.set({ stream: stream.key, group: 'hold-x' }, held.holdSegments);
    sendText(res, req, headers, d.skip !== undefined ? stream.delta(held, d.skip) : held.body, metrics);
  }

  /** A stream's N under holdParts 'auto' (core decidePartHold); a change is logged and emitted once. */
  async function partHold(stream: LiveStream, view: ManifestView, originName: string): Promise<number> {
    let sctx = streams.contextOf(stream, view, originName);
    // The stream's first receiver: wait for the first segment's size (one backhaul round trip)
    // rather than serve unheld and then move the playlist's edge back under the player.
    if (sctx.segmentBytes === undefined && stream.partHold === undefined) sctx = { ...sctx, segmentBytes: await stream.prefetcher.firstSegmentBytes(view.segmentSeconds * 1000) };
    const d = decidePartHold({
      rttMs: sctx.rttMs,
      partSeconds: view.lowLatency!.partSeconds,
      bitrateBps: sctx.segmentBytes === undefined ? undefined : (sctx.segmentBytes * 8) / view.segmentSeconds,
      ranBps: config.defaultRanMbps * 1e6,
      current: stream.partHold,
      maxHoldParts: config.maxHold,
    });
    if (d.n !== (stream.partHold ?? 0)) {
      const bitrateMbps = sctx.segmentBytes === undefined ? undefined : (sctx.segmentBytes * 8) / view.segmentSeconds / 1e6;
      events.emit('part-hold-change', { stream: stream.key, from: stream.partHold ?? 0, to: d.n, reason: d.reason, rttMs: sctx.rttMs, bitrateMbps });
    }
    stream.partHold = d.n;
    return d.n;
  }

  function refuse(res: ServerResponse, status: number, message: string, code: EdgeErrorCode, retryAfter?: string): void {
    metrics.countRequest('manifest', status);
    sendError(res, status, message, code, retryAfter);
  }
}

/**
 * In a fleet, an MPD names the steering server and this edge as a service location (dash.js
 * steers by BaseURL@serviceLocation). An MPD with BaseURLs of its own is served as it is. With
 * session tokens, the MPD carries the receiver's token in a Location for this edge and one for
 * each peer: dash.js refreshes the MPD from the Location of the pathway the steering server puts
 * first, so the edge it moves to gets the receiver's state as of its last refresh here. (A
 * Location dash.js synthesizes from a pathway clone would lose the token: it keeps only the path.)
 */
function steeredMpd(ctx: EdgeContext, held: { text: string; body: Buffer }, edgePath: string, token: string | undefined): Buffer {
  // Once per held text (the stream caches one per origin version × x), not once per request: the
  // text around the tokens is kept, the token goes in between.
  const fleet = ctx.fleet!;
  // The steering URI names a ready peer (FleetSteering.serverUri): a new one makes a new text.
  const serverUri = fleet.serverUri;
  let cached = STEERED.get(held);
  if (cached === undefined || cached.serverUri !== serverUri) {
    cached = { serverUri, plain: held.body, pieces: undefined };
    try {
      const dir = edgePath.slice(0, edgePath.lastIndexOf('/') + 1);
      const text = addDashSteering(held.text, {
        serverUri,
        serviceLocation: fleet.pathway,
        baseUrl: `${fleet.publicUrl}${dir}`,
        location: `${fleet.publicUrl}${edgePath}${TOKEN_MARK}`,
        peerLocations: fleet.peers.map((p) => ({ serviceLocation: p.id, url: `${p.url}${edgePath}${TOKEN_MARK}` })),
        peerBaseUrls: fleet.peers.map((p) => ({ serviceLocation: p.id, url: `${p.url}${dir}` })),
      });
      const pieces = text.split(TOKEN_MARK);
      cached = { serverUri, plain: Buffer.from(pieces.join(''), 'utf8'), pieces: pieces.map((t) => Buffer.from(t, 'utf8')) };
    } catch (e) {
      if (!isEthleError(e)) throw e;
    }
    STEERED.set(held, cached);
  }
  if (token === undefined || cached.pieces === undefined) return cached.plain;
  const q = Buffer.from(`?ethle_session=${token}`, 'latin1');
  const parts: Buffer[] = [cached.pieces[0]!];
  for (let i = 1; i < cached.pieces.length; i++) parts.push(q, cached.pieces[i]!);
  return Buffer.concat(parts);
}

/** Where the session token goes in a steered MPD's Location (never sent). */
const TOKEN_MARK = '\u0000ethle-token\u0000';

/** Steered MPD texts by held text: freed with the held text (a new version, another x). */
const STEERED = new WeakMap<object, { serverUri: string; plain: Buffer; pieces: Buffer[] | undefined }>();

/** A signed token of a session, or undefined without a fleet secret or for a sid a token cannot carry. */
async function signedToken(ctx: EdgeContext, state: Omit<SessionClaims, 'issuer' | 'expiresAt'>): Promise<string | undefined> {
  if (ctx.sessionTokens === undefined) return undefined;
  try {
    return await ctx.sessionTokens.sign(state, ctx.now());
  } catch (e) {
    // A CMCD sid longer than a token carries: the session stays at this edge, as without tokens.
    if (isEthleError(e) && e.code === 'ERR_SESSION_TOKEN_INVALID') return undefined;
    throw e;
  }
}

/** The last radio measurement a token carried, as evidence here (one measurement, by another edge). */
function handedEstimate(c: SessionClaims): RadioEstimate | undefined {
  if (c.radioBps === undefined) return undefined;
  return { bps: c.radioBps, source: 'measured', evidence: { rniBps: undefined, measuredBps: c.radioBps, measuredBytes: undefined, segmentBytes: 0, mtpKbps: undefined, blMs: undefined, segmentsDownloaded: 0, skipped: [] } };
}

/** A parent's backhaul RTT for the edges behind it (whole µs), when it has one. */
function upstreamRtt(ms: number | undefined): Record<string, string> {
  return ms === undefined ? {} : { [HEADERS.upstreamRtt]: ms.toFixed(3) };
}

function sendText(res: ServerResponse, req: IncomingMessage, headers: Record<string, string | number>, body: Buffer, metrics: EdgeContext['metrics']): void {
  metrics.countRequest('manifest', 200);
  headers['content-length'] = body.length;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
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

function clientIp(req: IncomingMessage): string {
  const a = req.socket.remoteAddress ?? 'unknown';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}

