import type { Dispatcher } from 'undici';
import { EdgeError } from '../errors/EdgeError.js';
import { statusError } from './toEdgeError.js';

/** The redirects one fetch follows; the next one fails it (ERR_EDGE_ORIGIN_REDIRECT). */
export const MAX_REDIRECTS = 3;

/** The statuses undici's redirect interceptor follows when they carry a Location. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([300, 301, 302, 303, 307, 308]);

/** Where redirects may lead: this origin, under its base path. */
export interface RedirectScope {
  /** The origin's `scheme://host:port`. */
  origin: string;
  /** The configured URL's path ('' for the root), which every target must stay under. */
  basePath: string;
}

/**
 * The origin-relative path a redirect `location` (from a response to `fromPath`, base path
 * included) leads to, or undefined when it leaves the scope or is no URL.
 */
export function pathInScope(scope: RedirectScope, location: string, fromPath: string): string | undefined {
  let u: URL;
  try {
    u = new URL(location, `${scope.origin}${fromPath}`);
  } catch {
    return undefined;
  }
  if (u.origin !== scope.origin || !u.pathname.startsWith(`${scope.basePath}/`)) return undefined;
  return `${u.pathname.slice(scope.basePath.length)}${u.search}`;
}

/**
 * An undici interceptor that fails a request whose response redirects out of `scope`, before
 * the redirect interceptor composed around it can follow: the edge fetches only from the origins
 * it is configured for (a CDN's path rewrite, a trailing slash are fine), and a Pool would
 * otherwise send the other host's path to this origin. A redirect without a Location is refused
 * too; a 300 (Multiple Choices) is a status, as it always was here, not a redirect to follow.
 */
export function sameOriginRedirects(scope: RedirectScope): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const from = opts.path;
    return dispatch(opts, {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, statusCode, headers, socket) => handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
      onResponseStart: (controller, statusCode, headers, statusMessage) => {
        if (REDIRECT_STATUSES.has(statusCode)) {
          const path = from.slice(scope.basePath.length);
          // Thrown here, undici aborts the request with it (and the redirect is not followed).
          if (statusCode === 300) throw statusError(path, statusCode, headers);
          const location = headers['location'];
          if (typeof location !== 'string' || pathInScope(scope, location, from) === undefined) {
            throw new EdgeError(
              'ERR_EDGE_ORIGIN_REDIRECT',
              `origin redirected ${path} to ${String(location).slice(0, 200)} (not this origin)`,
              { path, status: statusCode, location },
            );
          }
        }
        handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
      },
      onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
      onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
      onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
    });
  };
}
