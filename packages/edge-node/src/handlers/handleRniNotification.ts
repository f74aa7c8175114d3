import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from '../http/sendError.js';
import type { RniSubscription } from '../radio/RniSubscription.js';

/** Largest MEC 012 notification body the edge reads. */
const MAX_NOTIFICATION_BYTES = 65_536;

/** POST /_ethle/rni/notifications: a MEC 012 MeasRepUe notification updates a UE's radio estimate. */
export async function handleRniNotification(req: IncomingMessage, res: ServerResponse, rni: RniSubscription, nowMs: number): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > MAX_NOTIFICATION_BYTES) {
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
  if (!rni.handleNotification(body, nowMs)) {
    sendError(res, 400, 'not a MeasRepUeNotification with associateId, rsrp and rsrq');
    return;
  }
  res.writeHead(204).end();
}
