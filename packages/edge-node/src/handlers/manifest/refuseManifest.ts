import type { ServerResponse } from 'node:http';
import type { EdgeErrorCode } from '../../errors/EdgeErrorCode.js';
import { sendError } from '../../http/sendError.js';
import type { EdgeMetrics } from '../../metrics/EdgeMetrics.js';

/** A manifest request answered with an error and its code, counted by status. */
export function refuseManifest(
  res: ServerResponse,
  metrics: Pick<EdgeMetrics, 'countRequest'>,
  status: number,
  message: string,
  code: EdgeErrorCode,
  retryAfter?: string,
): void {
  metrics.countRequest('manifest', status);
  sendError(res, status, message, code, retryAfter);
}
