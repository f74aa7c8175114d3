/** The LL-HLS delivery directives of a playlist request (RFC 8216bis §6.2.5). */
export interface LlQuery {
  msn?: number;
  part?: number;
  /** `_HLS_skip=YES` or `v2` (there are no date ranges to skip, so both mean the same here). */
  skip: boolean;
}

const INT_RE = /^\d{1,12}$/;

/** Parses `_HLS_msn`, `_HLS_part` and `_HLS_skip`; other parameters are ignored. A string is the 400 message. */
export function parseLlQuery(query: string): LlQuery | string {
  const q = new URLSearchParams(query);
  const msn = q.get('_HLS_msn');
  const part = q.get('_HLS_part');
  const skip = q.get('_HLS_skip');
  if (msn !== null && !INT_RE.test(msn)) return `_HLS_msn must be a non-negative integer, got ${JSON.stringify(msn.slice(0, 20))}`;
  if (part !== null && !INT_RE.test(part)) return `_HLS_part must be a non-negative integer, got ${JSON.stringify(part.slice(0, 20))}`;
  // RFC 8216bis §6.2.5.2: a part without its segment is a Bad Request.
  if (part !== null && msn === null) return '_HLS_part without _HLS_msn';
  if (skip !== null && skip !== 'YES' && skip !== 'v2') return `_HLS_skip must be YES or v2, got ${JSON.stringify(skip.slice(0, 20))}`;
  return { ...(msn === null ? {} : { msn: Number(msn) }), ...(part === null ? {} : { part: Number(part) }), skip: skip !== null };
}
