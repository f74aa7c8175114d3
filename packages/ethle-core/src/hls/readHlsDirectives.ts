/** The RFC 8216bis §6.2.5 delivery directives of a playlist request. */
export interface HlsDirectives {
  /** `_HLS_msn`: block until this media sequence number is in the playlist. */
  msn?: number;
  /** `_HLS_part`: with `msn`, block until this part of it is. */
  part?: number;
  /** `_HLS_skip`: answer with a delta update (YES: skip segments; v2: date ranges too). */
  skip?: 'YES' | 'v2';
}

export type HlsDirectivesVerdict =
  | { ok: true; directives: HlsDirectives }
  /** RFC 8216bis §6.2.5.2: a malformed directive, or `_HLS_part` without `_HLS_msn`, is a Bad Request (400). */
  | { ok: false; status: 400; reason: 'bad-msn' | 'bad-part' | 'bad-skip' | 'part-without-msn'; value?: string };

const DECIMAL_INTEGER_RE = /^\d{1,15}$/;

/**
 * Reads `_HLS_msn`, `_HLS_part` and `_HLS_skip` from a request's query (`get` as URLSearchParams
 * has it; the core has no URL types). A value that is not a decimal-integer (or YES/v2) is a 400,
 * not a silently ignored directive: the receiver would otherwise block on something else.
 */
export function readHlsDirectives(get: (name: string) => string | null | undefined): HlsDirectivesVerdict {
  const directives: HlsDirectives = {};
  const msn = get('_HLS_msn');
  const part = get('_HLS_part');
  const skip = get('_HLS_skip');
  if (msn !== null && msn !== undefined) {
    if (!DECIMAL_INTEGER_RE.test(msn)) return { ok: false, status: 400, reason: 'bad-msn', value: msn.slice(0, 40) };
    directives.msn = Number(msn);
  }
  if (part !== null && part !== undefined) {
    if (!DECIMAL_INTEGER_RE.test(part)) return { ok: false, status: 400, reason: 'bad-part', value: part.slice(0, 40) };
    if (directives.msn === undefined) return { ok: false, status: 400, reason: 'part-without-msn' };
    directives.part = Number(part);
  }
  if (skip !== null && skip !== undefined) {
    if (skip !== 'YES' && skip !== 'v2') return { ok: false, status: 400, reason: 'bad-skip', value: skip.slice(0, 40) };
    directives.skip = skip;
  }
  return { ok: true, directives };
}
