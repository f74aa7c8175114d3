import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EdgeMetrics } from '../../metrics/EdgeMetrics.js';
import type { ManifestHeaders } from './manifestHeaders.js';

/** A manifest body answered 200 and counted; a HEAD request gets the headers only. */
export function sendManifest(
  res: ServerResponse,
  req: IncomingMessage,
  headers: ManifestHeaders,
  body: Buffer,
  metrics: Pick<EdgeMetrics, 'countRequest'>,
): void {
  metrics.countRequest('manifest', 200);
  headers['content-length'] = body.length;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
