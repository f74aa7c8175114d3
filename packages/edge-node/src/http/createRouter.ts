import type { IncomingMessage, ServerResponse } from 'node:http';
import { isManifestPath } from '@ethle/core';
import type { BoxAnswer } from '../cluster/BoxView.js';
import type { EdgeContext, Origin } from '../EdgeContext.js';
import { createManifestHandler } from '../handlers/handleManifest.js';
import { handleRniNotification } from '../handlers/handleRniNotification.js';
import { createSegmentHandler } from '../handlers/handleSegment.js';
import { currentPathway, STEERING_PATH } from '../fleet/FleetSteering.js';
import { LOAD_PATH } from '../fleet/EdgeLoadReport.js';
import { SESSION_PATH } from '../fleet/SessionHandover.js';
import { handleSessionExport } from '../fleet/handleSessionExport.js';
import { RNI_CALLBACK_PATH } from '../radio/RniSubscription.js';
import { CORS, CORS_PREFLIGHT } from './HEADERS.js';
import { httpDate } from './httpDate.js';
import { isRejection, parseTarget } from './parseTarget.js';
import { sendError } from './sendError.js';
import { createTimelineHandler, TIMELINE_PATH } from '../timeline/handleTimeline.js';
import { handleSessions } from '../sessions/handleSessions.js';
import { SESSIONS_PATH } from '../sessions/SessionFacts.js';

/** Paths of the origin a receiver may reach through the edge without a manifest naming them. */
const MEDIA_RE = /\.(m3u8|mpd|m4s|mp4|m4v|m4a|cmfv|cmfa|cmft|ts|aac|ac3|ec3|mp3|vtt|webvtt|key|jpg|jpeg|png)$/i;

/**
 * The edge's route table, in order: CORS preflight; targets rejected before anything else
 * (parseTarget); the MEC 012 callback; methods; /healthz (alive); /readyz (ready for receivers);
 * /metrics; the reserved /_ethle/ space; an origin's root (a keep-warm probe, answered here);
 * then per configured origin: manifests, media (by extension, or listed in an active window), and
 * a 404 for any other origin path (stats, admin switches behind a GET are not the receivers').
 */
export function createRouter(ctx: EdgeContext): (req: IncomingMessage, res: ServerResponse) => void | Promise<void> {
  const { config, metrics, origins, streams } = ctx;
  const handleManifest = createManifestHandler(ctx);
  const handleSegment = createSegmentHandler(ctx);
  const handleTimeline = createTimelineHandler(ctx);
  const single = config.origins.length === 1 ? origins.values().next().value! : undefined;

  /** /metrics and /_ethle/load: under `serve --workers` the box's numbers, from the primary; else this process's. */
  const numbers = async (res: ServerResponse, path: string): Promise<void> => {
    let box: BoxAnswer | undefined;
    if (ctx.box !== undefined) {
      try {
        box = await ctx.box();
      } catch (e) {
        sendError(res, 503, `the box's numbers are not available: ${(e as Error).message}`);
        return;
      }
    }
    if (path === LOAD_PATH) {
      const body = JSON.stringify(box?.load ?? ctx.load());
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) })
        .end(body);
    } else {
      const body = box?.metrics ?? (await metrics.registry.metrics());
      res.writeHead(200, { 'content-type': box?.contentType ?? metrics.registry.contentType, 'cache-control': 'no-store' }).end(body);
    }
  };

  // Hot path: not async. A promise only where an answer waits (a manifest, RNI, the box's
  // numbers); a cached segment is answered without one.
  return function route(req, res) {
    const method = req.method ?? '';
    const target = parseTarget(req.url, config.maxUrlLength);
    // Date (httpDate: the second the edge answers in, which receivers sync their clocks to). A
    // manifest sets it among its own headers as it answers (sendManifest, sendError,
    // redirectToOrigin): one writeHead with every header is Node's fast path, and a blocking
    // reload says when it was answered, not asked. Every other answer gets it here.
    if (isRejection(target) || method === 'OPTIONS' || !isManifestPath(target.path) || target.path.startsWith('/_ethle/'))
      res.setHeader('date', httpDate());
    if (method === 'OPTIONS') {
      res.writeHead(204, CORS_PREFLIGHT).end();
      return;
    }
    if (isRejection(target)) {
      metrics.countRequest('rejected', target.status);
      sendError(res, target.status, target.message);
      return;
    }
    if (method === 'POST' && target.path === RNI_CALLBACK_PATH && ctx.rni !== undefined)
      return handleRniNotification(req, res, ctx.rni, ctx.now());
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
    if (target.path === '/readyz') {
      // Ready: not draining, and every origin answered (its keep-warm probe or a manifest) lately.
      const why = ctx.notReady();
      res
        .writeHead(why === undefined ? 200 : 503, { 'content-type': 'text/plain', 'cache-control': 'no-store' })
        .end(why === undefined ? 'ready\n' : `not ready: ${why}\n`);
      return;
    }
    if (target.path === LOAD_PATH || target.path === '/metrics') return numbers(res, target.path);
    if (target.path === TIMELINE_PATH) return handleTimeline(res, target);
    if (target.path === STEERING_PATH && ctx.fleet !== undefined) {
      // Content steering: the fleet's pathways for a player on `_HLS_pathway` / `_DASH_pathway`.
      const current = currentPathway(target.query);
      const body = JSON.stringify(ctx.fleet.manifest(current, target.query.has('_DASH_pathway') ? 'dash' : 'hls'));
      res
        .writeHead(200, {
          ...CORS,
          'content-type': 'application/json',
          'cache-control': 'no-store',
          'content-length': Buffer.byteLength(body),
        })
        .end(body);
      return;
    }
    if (target.path === SESSION_PATH) return handleSessionExport(ctx, res, target);
    if (target.path === SESSIONS_PATH || target.path.startsWith(`${SESSIONS_PATH}/`)) return handleSessions(ctx, res, target);
    if (target.path.startsWith('/_ethle/')) {
      sendError(res, 404, 'not found');
      return;
    }
    let origin: Origin | undefined = single;
    let originPath = target.path;
    if (origin === undefined) {
      const slash = target.path.indexOf('/', 1);
      origin = origins.get(target.path.slice(1, slash < 0 ? undefined : slash));
      originPath = slash < 0 ? '/' : target.path.slice(slash);
    }
    if (originPath === '/' && (origin !== undefined || target.path === '/')) {
      // An origin's root (`/`, `/{name}/`): the keep-warm GET of an edge behind this one
      // (OriginClient.probe), a balancer's check. Answered here, never forwarded, and counted as a
      // probe: as a 404 it made every edge's keep-warm look like a rejected receiver request.
      metrics.countRequest('probe', 200);
      res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store', 'content-length': 3 }).end('ok\n');
      return;
    }
    if (origin === undefined) {
      metrics.countRequest('rejected', 404);
      sendError(res, 404, 'no configured origin for this path');
      return;
    }
    if (isManifestPath(originPath)) return handleManifest(req, res, origin, originPath, target);
    if (MEDIA_RE.test(originPath) || streams.has(origin.cfg.name, originPath))
      handleSegment(req, res, origin, originPath, target.forwardQuery, target.query, method === 'HEAD');
    else {
      metrics.countRequest('rejected', 404);
      sendError(res, 404, 'not a media path of a configured origin');
    }
  };
}
