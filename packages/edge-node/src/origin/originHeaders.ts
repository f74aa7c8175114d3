import { ETHLE_HEADERS, forbidsStore, isStorable as storableRule } from '@ethle/core';
import type { Dispatcher } from 'undici';
import type { EntryHeaders } from '../cache/CacheEntry.js';

/** An origin response's headers, as undici parses them. */
type Headers = Dispatcher.ResponseData['headers'];

/** Headers of an origin segment response worth replaying to receivers. */
const KEPT_HEADERS = [
  'content-type',
  ETHLE_HEADERS.productionStart,
  ETHLE_HEADERS.productionEnd,
  'last-modified',
  'etag',
  ETHLE_HEADERS.holdSegments,
  ETHLE_HEADERS.role,
  ETHLE_HEADERS.upstreamRtt,
];

/** `Content-Range: bytes a-b/total`; module-level, as every range response is read with it. */
const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+)$/;

/** Whether a response may be kept: the core's rule (isStorable), the one the service worker applies too. */
export function isStorable(headers: Headers): boolean {
  const h = (name: string): string | undefined => (headers[name] === undefined ? undefined : String(headers[name]));
  return storableRule({ cacheControl: h('cache-control'), contentLength: h('content-length'), transferEncoding: h('transfer-encoding') });
}

/** The version of an object as its validators name it (parts of one fetch must agree). */
export function validators(headers: Headers): string {
  return `${String(headers['etag'] ?? '')}|${String(headers['last-modified'] ?? '')}`;
}

/** A valid Content-Length, or undefined. */
export function contentLength(headers: Headers): number | undefined {
  const v = headers['content-length'];
  if (typeof v !== 'string') return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** `Content-Range: bytes a-b/total` of a 206, or undefined. */
export function contentRange(headers: Headers): { start: number; end: number; total: number } | undefined {
  const v = headers['content-range'];
  const m = typeof v === 'string' ? CONTENT_RANGE.exec(v.trim()) : null;
  if (m === null) return undefined;
  const [start, end, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return Number.isSafeInteger(total) && start <= end && end < total ? { start, end, total } : undefined;
}

/** The headers a cache entry keeps and replays to its receivers. */
export function keptHeaders(headers: Headers): EntryHeaders {
  const out: EntryHeaders = {};
  for (const h of KEPT_HEADERS) {
    const v = headers[h];
    if (typeof v === 'string') out[h] = v;
  }
  // An origin that wants to be asked each time (an object still growing, a per-viewer one) says
  // so to the caches after the edge too; any other object gets the edge's own max-age.
  const cc = headers['cache-control'];
  const ccText = Array.isArray(cc) ? cc.join(', ') : cc;
  if (forbidsStore(ccText)) out['cache-control'] = ccText!;
  return out;
}
