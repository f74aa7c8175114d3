import {
  CmsdObjectType,
  CmsdStreamingFormat,
  CmsdStreamType,
  encodeCmsdDynamic,
  encodeCmsdStatic,
  type CmsdDynamic,
  type CmsdDynamicParams,
} from '@svta/cml-cmsd';

/**
 * CMSD (CTA-5006) on what the edge serves, with @svta/cml-cmsd. CMSD-Static says what the object
 * is and persists across hops: the object type (m manifest, i init; media segments leave it out,
 * as the spec asks when the type is not known — an HLS segment may be muxed), the streaming format,
 * live, and for media segments their playback duration `d`. CMSD-Dynamic is this hop's: the edge's
 * name and, once the edge has measured the receiver's radio (its own delivery rate of whole
 * segments to it), `etp` — which dash.js reads (`streaming.cmsd`) into its throughput estimate.
 * `rtt` is left out: Node does not expose the receiver connection's TCP RTT.
 */
const STATIC = new Map<string, string>();

export function cmsdStatic(kind: 'manifest' | 'init' | 'segment', format: 'hls' | 'dash' | undefined, durationS?: number): string {
  const k = `${kind}|${format ?? ''}|${durationS ?? ''}`;
  let v = STATIC.get(k);
  if (v === undefined) {
    // A few distinct values (kinds × formats × segment lengths): made once each.
    v = encodeCmsdStatic({
      ...(kind === 'manifest' ? { ot: CmsdObjectType.MANIFEST } : kind === 'init' ? { ot: CmsdObjectType.INIT } : {}),
      ...(format === undefined ? {} : { sf: format === 'dash' ? CmsdStreamingFormat.DASH : CmsdStreamingFormat.HLS }),
      st: CmsdStreamType.LIVE,
      ...(kind === 'segment' && durationS !== undefined ? { d: Math.round(durationS * 1000) } : {}),
    });
    if (STATIC.size < 256) STATIC.set(k, v);
  }
  return v;
}

/**
 * CMSD-Dynamic values made so far, by edge id and `etp` (kbit/s, -1: none): the same few values
 * are sent over and over (every reload of a receiver the edge has not measured gets the edge's
 * bare name), and encoding one is a structured-field serialisation. Bounded: a few edge ids, and
 * a map of etp values cleared when it reaches MAX_ETP_VALUES.
 */
const DYNAMIC = new Map<string, Map<number, string>>();
const MAX_ETP_VALUES = 4096;

export function cmsdDynamic(edgeId: string, etpMbps: number | undefined): string {
  const etp = etpMbps === undefined ? -1 : Math.max(1, Math.round(etpMbps * 1000));
  let byEtp = DYNAMIC.get(edgeId);
  if (byEtp === undefined) {
    byEtp = new Map();
    if (DYNAMIC.size < 16) DYNAMIC.set(edgeId, byEtp);
  }
  let v = byEtp.get(etp);
  if (v === undefined) {
    const params: CmsdDynamicParams = etp < 0 ? {} : { etp };
    // The (name, params) overload takes the params as its second argument at run time (1.1.0), though
    // its declaration names the { value, params } pair; test/cmsdHeaders.test.ts pins the output.
    v = encodeCmsdDynamic(edgeId, params as unknown as CmsdDynamic);
    if (byEtp.size >= MAX_ETP_VALUES) byEtp.clear();
    byEtp.set(etp, v);
  }
  return v;
}

/** HTTP Age, whole seconds since `sinceMs` (RFC 9111 §5.1), never negative. */
export function ageSeconds(sinceMs: number, nowMs: number): number {
  return Math.max(0, Math.floor((nowMs - sinceMs) / 1000));
}
