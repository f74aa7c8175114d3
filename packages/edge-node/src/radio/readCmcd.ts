import { fromCmcdHeaders, fromCmcdQuery } from '@svta/cml-cmcd';
import type { IncomingHttpHeaders } from 'node:http';

/** What the edge uses from CMCD (CTA-5004): session id, measured throughput, buffer length. */
export interface CmcdHints {
  sid: string | undefined;
  /** Measured throughput reported by the player, Mbit/s (CMCD mtp is kbit/s). */
  mtpMbps: number | undefined;
  /** Buffer length, ms. */
  blMs: number | undefined;
  /** Next object request: the object the player will ask for next, relative to this request's URL. */
  nor: string | undefined;
  /** Next range request (of `nor`, or of this object without it). */
  nrr: string | undefined;
}

const NONE: CmcdHints = { sid: undefined, mtpMbps: undefined, blMs: undefined, nor: undefined, nrr: undefined };

/** CMCD v2 values may be inner lists (`[48100]`) or items with params; take the first number. */
function firstNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (Array.isArray(v)) return firstNumber(v[0]);
  if (v !== null && typeof v === 'object' && 'value' in v) return firstNumber((v as { value: unknown }).value);
  return undefined;
}

/**
 * CTA-5004 has `nor` URL-encoded inside its string (hls.js sends `"..%2F15M-2s%2F75.m4s"`): decoded,
 * or dropped when it is not valid percent-encoding. Used as it came, the edge asked the origin for
 * `/live/15M-2s/..%2F15M-2s%2F75.m4s` and got 400s.
 */
function urlDecoded(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  try {
    return decodeURIComponent(v);
  } catch {
    return undefined;
  }
}

/**
 * Decode CMCD from the `CMCD=` query argument or the `CMCD-*` request headers with
 * @svta/cml-cmcd. Malformed CMCD is ignored (it is a hint, never a reason to fail a request).
 */
export function readCmcd(query: URLSearchParams | undefined, headers: IncomingHttpHeaders): CmcdHints {
  try {
    let data: Record<string, unknown> | undefined;
    if (query?.has('CMCD')) {
      data = fromCmcdQuery(query) as Record<string, unknown>;
    } else if (
      headers['cmcd-request'] !== undefined ||
      headers['cmcd-session'] !== undefined ||
      headers['cmcd-object'] !== undefined ||
      headers['cmcd-status'] !== undefined
    ) {
      const h: Record<string, string> = {};
      for (const k of ['cmcd-request', 'cmcd-session', 'cmcd-object', 'cmcd-status']) {
        const v = headers[k];
        if (typeof v === 'string') h[k] = v;
      }
      data = fromCmcdHeaders(h) as Record<string, unknown>;
    }
    if (data === undefined) return NONE;
    const mtp = firstNumber(data['mtp']);
    const sid = typeof data['sid'] === 'string' && data['sid'].length > 0 && data['sid'].length <= 128 ? data['sid'] : undefined;
    const text = (k: string) =>
      typeof data![k] === 'string' && (data![k] as string).length > 0 && (data![k] as string).length <= 2048
        ? (data![k] as string)
        : undefined;
    return {
      sid,
      mtpMbps: mtp !== undefined && mtp > 0 ? mtp / 1000 : undefined,
      blMs: firstNumber(data['bl']),
      nor: urlDecoded(text('nor')),
      nrr: text('nrr'),
    };
  } catch {
    return NONE;
  }
}
