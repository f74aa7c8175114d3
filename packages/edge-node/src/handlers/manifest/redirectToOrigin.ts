import type { ReceiverDecision } from '@ethle/core';
import type { ServerResponse } from 'node:http';
import type { EdgeContext, Origin } from '../../EdgeContext.js';
import { CORS } from '../../http/HEADERS.js';
import { httpDate } from '../../http/httpDate.js';
import type { RequestTarget } from '../../http/parseTarget.js';

/**
 * A receiver whose radio is slower than the stream on sustained evidence (eq. 3) is sent to the
 * origin (307, or 302 by configuration): it leaves the edge for good, so the log says on what
 * evidence — the window's time-weighted mean and span (redirectSustainMs) and its measurements.
 */
export function redirectToOrigin(
  ctx: Pick<EdgeContext, 'config' | 'metrics' | 'events' | 'log'>,
  res: ServerResponse,
  d: Extract<ReceiverDecision, { kind: 'redirect' }>,
  origin: Origin,
  originPath: string,
  target: RequestTarget,
  session: string,
  streamKey: string,
): void {
  const status = ctx.config.ranFailAction === 'redirect-302' ? 302 : 307;
  // The origin as receivers reach it, which need not be the address the edge fetches from.
  const location = `${origin.cfg.publicUrl}${originPath}${target.forwardQuery}`;
  ctx.metrics.redirects.inc();
  ctx.log.info(
    {
      session,
      stream: streamKey,
      ranMbps: d.ranMbps,
      bitrateMbps: d.bitrateMbps,
      evidence: {
        meanMbps: d.evidence.meanBps === undefined ? undefined : d.evidence.meanBps / 1e6,
        spanMs: d.evidence.spanMs,
        measurements: d.evidence.measurements.map((e) => ({ mbps: e.bps / 1e6, source: e.source, atMs: e.atMs })),
      },
    },
    'receiver redirected to the origin (eq. 3)',
  );
  ctx.events.emit('redirect', { session, stream: streamKey, location, ranMbps: d.ranMbps, bitrateMbps: d.bitrateMbps });
  ctx.metrics.countRequest('manifest', status);
  res.writeHead(status, { date: httpDate(), ...CORS, location, 'cache-control': 'no-store', 'content-length': 0 }).end();
}
