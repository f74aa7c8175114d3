import { streamTag, type StreamContext } from '@ethle/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EdgeContext, Origin } from '../EdgeContext.js';
import { isEdgeError } from '../errors/EdgeError.js';
import { HEADERS } from '../http/HEADERS.js';
import type { RequestTarget } from '../http/parseTarget.js';
import { retryAfterFor, statusFor } from '../http/sendError.js';
import { readCmcd } from '../radio/readCmcd.js';
import type { LiveStream } from '../stream/LiveStream.js';
import { adoptHandedSession } from './manifest/adoptHandedSession.js';
import { manifestHeaders } from './manifest/manifestHeaders.js';
import { readSessionToken } from './manifest/readSessionToken.js';
import { FIXED_HOLD_RADIO, receiverRadio } from './manifest/receiverRadio.js';
import { clientIp, safeSid } from './manifest/receiverSession.js';
import { redirectToOrigin } from './manifest/redirectToOrigin.js';
import { refuseManifest } from './manifest/refuseManifest.js';
import { sendManifest } from './manifest/sendManifest.js';
import { serveHeldParts } from './manifest/serveHeldParts.js';
import { serveMultivariant } from './manifest/serveMultivariant.js';
import { signedToken } from './manifest/signedToken.js';
import { LowLatencyLostNotice } from './manifest/LowLatencyLostNotice.js';
import { StaleManifestGate } from './manifest/StaleManifestGate.js';
import { steeredMpd } from './manifest/steeredMpd.js';

/**
 * Manifest requests: the held playlist/MPD of the request's stream for the receiver's policy
 * group, the last good version (marked stale) while the origin's is broken, or a redirect to the
 * origin when the receiver's radio is slower than the stream (eq. 3). The steps are in
 * `manifest/`; this composes them in order. Hot path: once the stream has a version and a
 * decision needs no first-segment size, nothing here awaits.
 */
export function createManifestHandler(ctx: EdgeContext) {
  const { config, metrics, events, policy, streams } = ctx;
  const stale = new StaleManifestGate({ metrics, events, manifestStaleMs: config.manifestStaleMs });
  const lowLatencyLost = new LowLatencyLostNotice(ctx.log);

  return async function handleManifest(
    req: IncomingMessage,
    res: ServerResponse,
    origin: Origin,
    originPath: string,
    target: RequestTarget,
  ): Promise<void> {
    let stream: LiveStream;
    try {
      stream = streams.forManifest(origin, originPath, target.forwardQuery === '' ? '' : target.forwardQuery.slice(1));
    } catch (e) {
      if (!isEdgeError(e)) throw e;
      return refuseManifest(res, metrics, 503, e.message, e.code, '5');
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
        return refuseManifest(res, metrics, statusFor(e), `origin manifest unavailable: ${e.code}`, e.code, retryAfterFor(e));
      }
    }
    const headers = manifestHeaders(ctx, req, target.query, origin, version);
    if (!stale.admit(res, stream, version, headers, ctx.now())) return;

    const cmcd = readCmcd(target.query, req.headers);
    let received = readSessionToken(target.query, ctx.sessionTokens, ctx.now());
    if (received instanceof Promise) received = await received;
    if (version.view.kind === 'hls-multivariant') return serveMultivariant(ctx, req, res, stream, version, received.sid, cmcd.sid, headers);

    const ip = clientIp(req);
    const session = received.sid ?? safeSid(cmcd.sid) ?? `ip-${ip}`;
    headers[HEADERS.session] = session;
    // Low-latency streams with --hold-parts: N parts for every receiver of the stream (the
    // policy's: fixed, or the stream's N from the part model), LL features answered by the edge.
    const parts = policy.holdsParts && version.view.holdParts !== undefined;
    if (parts && stream.upstreamHolds) return serveHeldParts(metrics, req, res, stream, version, 0, target.query, headers);
    // What the policy's decision reads, and only that: a fixed x or N reads nothing (hot path).
    const needs = policy.needs(stream.key, parts);
    let sctx: StreamContext = {
      stream: stream.key,
      origin: origin.cfg.name,
      segmentBytes: undefined,
      segmentSeconds: version.view.segmentSeconds,
      rttMs: undefined,
    };
    let radio = FIXED_HOLD_RADIO;
    if (needs !== 'nothing') {
      sctx = streams.contextOf(stream, version.view, origin.cfg.name);
      // A manifest that advertises no bitrate: wait for the first segment's Content-Length (one
      // backhaul round trip, started by the planner's first round).
      if (needs === 'size' && sctx.segmentBytes === undefined)
        sctx = { ...sctx, segmentBytes: await stream.prefetcher.firstSegmentBytes(version.view.segmentSeconds * 1000) };
      radio = receiverRadio(ctx, req, target.query, ip, cmcd, sctx.segmentBytes);
    }
    if (parts)
      return serveHeldParts(
        metrics,
        req,
        res,
        stream,
        version,
        policy.partHold(sctx, radio, version.view.lowLatency!.partSeconds),
        target.query,
        headers,
      );
    const pulling = adoptHandedSession(ctx, received, stream.key, session);
    if (pulling !== undefined) await pulling;
    const d = policy.receiver(sctx, session, radio, ctx.now());
    if (d?.kind === 'redirect') return redirectToOrigin(ctx, res, d, origin, originPath, target, session, stream.key);
    // No decision (no segment size or RTT yet): the stream's current x, the safe side, but the
    // session goes in no group on no evidence (hold-x would be for good).
    let x = d === undefined ? policy.streamHold(stream.key) : d.x;
    if (stream.upstreamHolds) x = 0;
    // The decision names the session's group; asking the policy again costs a lookup and an object per reload.
    const group = d?.kind === 'hold' && d.group !== undefined ? d.group : policy.sessionState(stream.key, session)?.group;
    events.emit('manifest-request', { session, stream: stream.key, hold: x, group });
    const held = stream.held(version, x, undefined);
    headers[HEADERS.holdSegments] = String(held.holdSegments);
    headers[HEADERS.holdSeconds] = String(Math.round(held.holdSeconds * 1000) / 1000);
    if (held.lowLatencyLostSeconds !== undefined) {
      headers[HEADERS.lowLatencyLost] = String(Math.round(held.lowLatencyLostSeconds * 1000) / 1000);
      lowLatencyLost.note(stream.key, held.lowLatencyLostSeconds);
    }
    if (held.fresh) metrics.hold.set({ stream: stream.key, group: x > 0 ? 'hold-x' : 'hold-0' }, held.holdSegments);
    let sessionToken: string | undefined;
    if (ctx.sessionTokens !== undefined) {
      const st = policy.sessionState(stream.key, session);
      sessionToken = await signedToken(
        ctx.sessionTokens,
        {
          sid: session,
          stream: streamTag(stream.key),
          group: st?.group,
          x: held.holdSegments,
          requests: st?.requests ?? 0,
          radioBps: st?.estimate?.bps,
        },
        ctx.now(),
      );
      if (sessionToken !== undefined) headers[HEADERS.sessionToken] = sessionToken;
    }
    sendManifest(
      res,
      req,
      headers,
      ctx.fleet !== undefined && version.view.kind === 'dash'
        ? steeredMpd(ctx.fleet, held, origin.prefix + originPath, sessionToken)
        : held.body,
      metrics,
    );
  };
}
