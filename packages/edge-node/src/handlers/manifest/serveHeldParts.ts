import { planBlockingReload, readHlsDirectives, type HlsDirectives } from '@ethle/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isEdgeError } from '../../errors/EdgeError.js';
import { HEADERS } from '../../http/HEADERS.js';
import { statusFor } from '../../http/sendError.js';
import type { EdgeMetrics } from '../../metrics/EdgeMetrics.js';
import type { LiveStream, Version } from '../../stream/LiveStream.js';
import type { ManifestHeaders } from './manifestHeaders.js';
import { refuseManifest } from './refuseManifest.js';
import { sendManifest } from './sendManifest.js';

/**
 * A low-latency manifest held in n parts. LL-HLS: a blocking reload (`_HLS_msn`/`_HLS_part`) is
 * judged against the held playlist (core planBlockingReload) and parked until the stream's own
 * origin poll brings a version whose held view lists it — at most 3 target durations, then 503
 * (RFC 8216bis §6.2.5.2); `_HLS_skip` gets a delta update of the held text. Nothing a receiver
 * asks is forwarded: the origin sees one poll per stream.
 */
export async function serveHeldParts(
  metrics: EdgeMetrics,
  req: IncomingMessage,
  res: ServerResponse,
  stream: LiveStream,
  version: Version,
  n: number,
  query: URLSearchParams,
  headers: ManifestHeaders,
): Promise<void> {
  let d: HlsDirectives = {};
  if (version.view.kind === 'hls-media') {
    const verdict = readHlsDirectives((k) => query.get(k));
    if (!verdict.ok) return refuseManifest(res, metrics, 400, `bad LL-HLS directive (${verdict.reason})`, 'ERR_EDGE_BLOCKING_BAD_REQUEST');
    d = verdict.directives;
  }
  let held = stream.heldParts(version, n)!;
  if (d.msn !== undefined && held.position !== undefined) {
    const want = { msn: d.msn, ...(d.part === undefined ? {} : { part: d.part }) };
    const asked = `_HLS_msn=${d.msn}${d.part === undefined ? '' : `&_HLS_part=${d.part}`}`;
    const plan = planBlockingReload(want, held.position, 0);
    if (plan.action === 'reject')
      return refuseManifest(res, metrics, 400, `${asked} is too far ahead (${plan.reason})`, 'ERR_EDGE_BLOCKING_BAD_REQUEST');
    if (plan.action === 'wait') {
      const gone = new AbortController();
      const onClose = (): void => gone.abort();
      res.once('close', onClose);
      let v: Version | undefined;
      try {
        v = await stream.waitFor(
          (cand) => {
            const p = stream.heldParts(cand, n)?.position;
            return p === undefined || planBlockingReload(want, p, 0).action !== 'wait';
          },
          plan.timeoutSeconds * 1000,
          gone.signal,
        );
      } catch (e) {
        res.off('close', onClose);
        if (!isEdgeError(e)) throw e;
        return refuseManifest(res, metrics, statusFor(e), e.message, e.code, '1');
      }
      res.off('close', onClose);
      if (res.destroyed) return void metrics.countRequest('manifest', 499);
      if (v === undefined)
        return refuseManifest(
          res,
          metrics,
          503,
          `${asked} not in the playlist within ${plan.timeoutSeconds} s`,
          'ERR_EDGE_BLOCKING_TIMEOUT',
        );
      held = stream.heldParts(v, n)!;
    }
  }
  headers[HEADERS.holdSegments] = String(held.holdSegments);
  headers[HEADERS.holdSeconds] = String(Math.round(held.holdSeconds * 1000) / 1000);
  headers[HEADERS.holdParts] = String(held.holdParts ?? 0);
  if (held.fresh) metrics.hold.set({ stream: stream.key, group: 'hold-x' }, held.holdSegments);
  sendManifest(res, req, headers, d.skip !== undefined ? stream.delta(held, d.skip) : held.body, metrics);
}
