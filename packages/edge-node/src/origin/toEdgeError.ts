import { errors as undiciErrors } from 'undici';
import type { Dispatcher } from 'undici';
import { EdgeError } from '../errors/EdgeError.js';
import type { FetchSignal } from './FetchSignal.js';

/** Reports a bug caught at a fetch's boundary (logged and counted by the edge). */
export type OnBug = (where: string, error: unknown) => void;

/** Which fetch boundary caught a bug (the `where` label of ethle_internal_errors_total). */
export type FetchBoundary = 'origin fetch' | 'manifest fetch';

/** A bug caught at a fetch's boundary: reported (logged, counted) once, and the fetch's error. */
export function internalError(e: unknown, path: string, onBug: OnBug | undefined, where: FetchBoundary = 'origin fetch'): EdgeError {
  onBug?.(where, e);
  return new EdgeError(
    'ERR_EDGE_INTERNAL',
    `fetch of ${path} failed inside the edge: ${(e as Error)?.message ?? String(e)}`,
    { path },
    { cause: e },
  );
}

/**
 * A bug of the edge's own (or the core's): undici reports network trouble, and the core bad
 * input, with their own error classes, so these never stand for an origin fault.
 */
export function isOwnBug(e: unknown): boolean {
  return e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError;
}

/**
 * Map an undici/socket error to the edge's catalogue. `inBody`: the headers had arrived (a break
 * then is a truncation, not an unreachable origin); `signal`: the fetch's own, to tell its
 * deadline from a cancellation.
 */
export function toEdgeError(
  e: unknown,
  o: { path: string; inBody: boolean; signal?: FetchSignal; onBug?: OnBug | undefined; where?: FetchBoundary },
): EdgeError {
  const { path, signal } = o;
  if (e instanceof EdgeError) return e;
  if (signal?.deadline.aborted) {
    const why = (signal.deadline.reason as Error | undefined)?.message ?? 'out of time';
    return new EdgeError(
      'ERR_EDGE_ORIGIN_TIMEOUT',
      `origin fetch of ${path} ended: ${why}`,
      { path, timeout: signal.timedOut ?? 'deadline' },
      { cause: e },
    );
  }
  if (signal?.cancel.aborted)
    return new EdgeError('ERR_EDGE_CANCELLED', `fetch of ${path} cancelled: ${String(signal.cancel.reason)}`, { path }, { cause: e });
  if (isOwnBug(e)) return internalError(e, path, o.onBug, o.where);
  const code = (e as { code?: string } | null)?.code;
  const undiciTimeout =
    e instanceof undiciErrors.HeadersTimeoutError
      ? 'headers'
      : e instanceof undiciErrors.BodyTimeoutError
        ? 'body'
        : e instanceof undiciErrors.ConnectTimeoutError
          ? 'connect'
          : undefined;
  if (undiciTimeout !== undefined) {
    return new EdgeError(
      'ERR_EDGE_ORIGIN_TIMEOUT',
      `origin timed out on ${path}`,
      { path, undici: code, timeout: undiciTimeout },
      { cause: e },
    );
  }
  if (code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED') {
    return new EdgeError('ERR_EDGE_CLOSED', `edge closed during ${path}`, { path }, { cause: e });
  }
  if (o.inBody) {
    return new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `origin body of ${path} broke off`, { path, undici: code }, { cause: e });
  }
  return new EdgeError('ERR_EDGE_ORIGIN_UNREACHABLE', `origin unreachable for ${path}`, { path, cause: code }, { cause: e });
}

/** A non-200 origin answer as an error that keeps the status and the origin's Retry-After. */
export function statusError(path: string, status: number, headers: Dispatcher.ResponseData['headers'], what = ''): EdgeError {
  const retryAfter = headers['retry-after'];
  return new EdgeError('ERR_EDGE_ORIGIN_STATUS', `origin answered ${status}${what} for ${path}`, {
    path,
    status,
    ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
  });
}
