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
 * The body of a redirect read at most: a 3xx's body is a short note for people (undici's
 * redirect interceptor ignores it). Reading it to its end keeps the keep-alive connection for
 * the next fetch (an origin that redirects often costs no handshake each time); a larger or
 * endless one is cut there and its connection closed.
 */
export const MAX_REDIRECT_BODY_BYTES = 64 * 1024;

/**
 * An undici interceptor that fails a request whose response redirects out of `scope`, before
 * the redirect interceptor composed around it can follow: the edge fetches only from the origins
 * it is configured for (a CDN's path rewrite, a trailing slash are fine), and a Pool would
 * otherwise send the other host's path to this origin. A redirect without a Location is refused
 * too; a 300 (Multiple Choices) is a status, as it always was here, not a redirect to follow.
 *
 * A refused response is not passed on: its body is read (up to MAX_REDIRECT_BODY_BYTES) and
 * dropped, and the request fails with the refusal when it ends, so the connection stays in the
 * pool. Every redirect's body, followed or not, is bounded the same way: beyond the bound the
 * request is aborted (its connection closed) with ERR_EDGE_ORIGIN_REDIRECT.
 */
export function sameOriginRedirects(scope: RedirectScope): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const from = opts.path;
    const path = from.slice(scope.basePath.length);
    /** This hop's response is a redirect: its body is counted against the bound. */
    let redirect = false;
    /** The refusal this hop ends with, once its body is read; the response is not passed on. */
    let refused: Error | undefined;
    let bodyBytes = 0;
    return dispatch(opts, {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, statusCode, headers, socket) => handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
      onResponseStart: (controller, statusCode, headers, statusMessage) => {
        if (REDIRECT_STATUSES.has(statusCode)) {
          redirect = true;
          const location = headers['location'];
          if (statusCode === 300) refused = statusError(path, statusCode, headers);
          else if (typeof location !== 'string' || pathInScope(scope, location, from) === undefined)
            refused = new EdgeError(
              'ERR_EDGE_ORIGIN_REDIRECT',
              `origin redirected ${path} to ${String(location).slice(0, 200)} (not this origin)`,
              { path, status: statusCode, location },
            );
          if (refused !== undefined) return;
        }
        handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
      },
      onResponseData: (controller, chunk) => {
        if (redirect) {
          bodyBytes += chunk.length;
          if (bodyBytes > MAX_REDIRECT_BODY_BYTES) {
            // Aborted, undici closes the connection and fails the request with this reason.
            controller.abort(
              refused ??
                new EdgeError('ERR_EDGE_ORIGIN_REDIRECT', `origin redirected ${path} with a body over ${MAX_REDIRECT_BODY_BYTES} bytes`, {
                  path,
                  bodyBytes,
                }),
            );
            return;
          }
        }
        if (refused === undefined) handler.onResponseData?.(controller, chunk);
      },
      onResponseEnd: (controller, trailers) => {
        // The refused response was read whole: the connection goes back to the pool.
        if (refused !== undefined) handler.onResponseError?.(controller, refused);
        else handler.onResponseEnd?.(controller, trailers);
      },
      onResponseError: (controller, error) => handler.onResponseError?.(controller, refused ?? error),
    });
  };
}
