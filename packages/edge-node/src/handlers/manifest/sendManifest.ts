import type { IncomingMessage, ServerResponse } from 'node:http';
import { httpDate } from '../../http/httpDate.js';
import type { EdgeMetrics } from '../../metrics/EdgeMetrics.js';
import type { ManifestHeaders } from './manifestHeaders.js';

/**
 * A manifest body answered 200 and counted; a HEAD request gets the headers only. Date is set
 * here, as the answer goes (after a blocking reload, the second it was answered), with every other
 * header in one writeHead: nothing set on `res` before, so Node takes its fast path (after a
 * setHeader, writeHead copies every header into the response's own table first).
 */
export function sendManifest(
  res: ServerResponse,
  req: IncomingMessage,
  headers: ManifestHeaders,
  body: Buffer,
  metrics: Pick<EdgeMetrics, 'countRequest'>,
): void {
  metrics.countRequest('manifest', 200);
  headers['content-length'] = body.length;
  headers['date'] = httpDate();
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
