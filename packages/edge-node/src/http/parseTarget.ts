import { keepQueryParams } from '@ethle/core';

/** A receiver's request target, validated: an origin-form path and its query. */
export interface RequestTarget {
  /** The raw path (still percent-encoded), starting with '/'. */
  path: string;
  /**
   * The raw query, as the receiver wrote it, without the edge's own parameters (CMCD,
   * ethle_session): forwarded to the origin byte for byte (signed URLs break on re-encoding).
   * '' or '?…'.
   */
  forwardQuery: string;
  query: URLSearchParams;
}

export type TargetRejection = { status: 400 | 414; message: string };

// Module-level regexes (hot path: every request).
const BAD_CHARS = /[\\\0\s]/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
const EMPTY_QUERY = new URLSearchParams();
const EDGE_PARAMS = new Set(['CMCD', 'ethle_session']);

/**
 * Validate a request target before anything is forwarded: origin-form only (an absolute-form
 * `http://other-host/...` would make the edge an open proxy), bounded length, no dot segments
 * (also percent-encoded), no backslashes or NULs.
 */
export function parseTarget(rawUrl: string | undefined, maxLength: number): RequestTarget | TargetRejection {
  if (rawUrl === undefined || rawUrl.length === 0) return { status: 400, message: 'missing request target' };
  if (rawUrl.length > maxLength) return { status: 414, message: `request target longer than ${maxLength} bytes` };
  if (rawUrl.charCodeAt(0) !== 47 /* / */ || rawUrl.startsWith('//')) {
    return { status: 400, message: 'only origin-form request targets (/path) are served; this edge is not a proxy' };
  }
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const rawQuery = q < 0 ? '' : rawUrl.slice(q + 1);
  if (BAD_CHARS.test(path)) return { status: 400, message: 'invalid characters in path' };
  // Common case first: nothing percent-encoded, so a regex finds dot segments without splitting.
  if (!path.includes('%')) {
    if (DOT_SEGMENT.test(path)) return { status: 400, message: 'dot segments and encoded separators are not allowed in paths' };
  } else
    for (const seg of path.split('/')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(seg);
      } catch {
        return { status: 400, message: 'malformed percent-encoding in path' };
      }
      if (decoded === '..' || decoded === '.' || decoded.includes('/') || decoded.includes('\\') || decoded.includes('\0')) {
        return { status: 400, message: 'dot segments and encoded separators are not allowed in paths' };
      }
    }
  const query = rawQuery === '' ? EMPTY_QUERY : new URLSearchParams(rawQuery);
  return { path, forwardQuery: rawQuery === '' ? '' : keepQueryParams(rawQuery, (name) => !EDGE_PARAMS.has(name)), query };
}

export function isRejection(t: RequestTarget | TargetRejection): t is TargetRejection {
  return 'status' in t;
}
