// Test helper (not a test file): a generated live stream and the media playlists an origin would
// serve for windows of it, with the owner of every line, so properties can state what holding
// must keep and remove without asking the code under test.
import fc from 'fast-check';

export interface StreamModel {
  td: number;
  base: number;
  /** Segment durations in ms, index 0 = msn `base`. */
  durMs: number[];
  disc: boolean[];
  fmp4: boolean;
  keyEvery: number; // 0 = unencrypted
  pdt: boolean;
  byteRanges: boolean;
  cueEvery: number; // 0 = no unknown tags
  ll: boolean;
  partialParts: number;
  reports: number;
  endList: boolean;
  crlf: boolean;
  trailingNewline: boolean;
  writeDiscSeq: boolean;
}

export type Owner = number | 'partial' | 'report' | 'other' | 'mediaSequence' | 'discontinuitySequence';
export interface Window {
  lines: string[];
  owners: Owner[];
  text: string;
  first: number;
  last: number;
}

export const PARTS_PER_SEGMENT = 4;
/** LL-HLS: only the newest segments list their parts. */
export const SEGMENTS_WITH_PARTS = 2;

export const streamModel: fc.Arbitrary<StreamModel> = fc
  .record({
    td: fc.integer({ min: 1, max: 6 }),
    base: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1_000_000 })),
    n: fc.integer({ min: 1, max: 24 }),
    durSeed: fc.array(fc.integer({ min: 100, max: 1000 }), { minLength: 24, maxLength: 24 }),
    discSeed: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 24, maxLength: 24 }),
    fmp4: fc.boolean(),
    keyEvery: fc.constantFrom(0, 0, 3, 5),
    pdt: fc.boolean(),
    byteRanges: fc.boolean(),
    cueEvery: fc.constantFrom(0, 0, 4),
    ll: fc.boolean(),
    partialParts: fc.integer({ min: 0, max: 3 }),
    reports: fc.integer({ min: 0, max: 2 }),
    endList: fc.integer({ min: 0, max: 9 }).map((v) => v === 0),
    crlf: fc.integer({ min: 0, max: 5 }).map((v) => v === 0),
    trailingNewline: fc.integer({ min: 0, max: 5 }).map((v) => v !== 0),
    writeDiscSeq: fc.boolean(),
  })
  .map((r) => ({
    td: r.td,
    base: r.base,
    // LL-HLS segments are exactly PARTS_PER_SEGMENT parts of td/4; others are 10 %…100 % of td.
    durMs: r.durSeed.slice(0, r.n).map((p) => (r.ll ? r.td * 1000 : Math.max(1, Math.round((r.td * 1000 * p) / 1000)))),
    disc: r.discSeed.slice(0, r.n).map((d, i) => i > 0 && d === 0),
    fmp4: r.fmp4 || r.ll,
    keyEvery: r.keyEvery,
    pdt: r.pdt,
    byteRanges: r.byteRanges && !r.ll,
    cueEvery: r.cueEvery,
    ll: r.ll,
    partialParts: r.ll ? r.partialParts : 0,
    reports: r.reports,
    endList: r.endList,
    crlf: r.crlf,
    trailingNewline: r.trailingNewline,
    writeDiscSeq: r.writeDiscSeq,
  }));

export const msnCount = (m: StreamModel) => m.durMs.length;
export function dsnOf(m: StreamModel, msn: number): number {
  let d = 0;
  for (let i = 0; i <= msn - m.base; i++) if (m.disc[i]) d++;
  return d;
}
export const durOf = (m: StreamModel, msn: number) => (m.durMs[msn - m.base] as number) / 1000;
export const keyOf = (m: StreamModel, msn: number) => `k${Math.floor(msn / m.keyEvery)}.key`;
export const mapOf = (m: StreamModel, msn: number) => `init${dsnOf(m, msn)}.mp4`;
export function uriOf(m: StreamModel, msn: number): string {
  if (m.byteRanges) return `f${Math.floor(msn / 3)}.ts`;
  return m.fmp4 ? `s${msn}.m4s` : `s${msn}.ts`;
}
export const rangeOf = (msn: number) => ({ length: 1000 + (msn % 3), offset: (msn % 3) * 1000 + (msn % 3 === 2 ? 1 : 0) });
const partDur = (m: StreamModel) => (m.td / PARTS_PER_SEGMENT).toFixed(3);

/** The playlist the origin serves when msns first…last are listed. */
export function renderWindow(m: StreamModel, first: number, last: number): Window {
  const lines: string[] = [];
  const owners: Owner[] = [];
  const push = (l: string, o: Owner) => {
    lines.push(l);
    owners.push(o);
  };
  push('#EXTM3U', 'other');
  push(`#EXT-X-VERSION:${m.ll ? 9 : 7}`, 'other');
  push(`#EXT-X-TARGETDURATION:${m.td}`, 'other');
  if (m.ll) {
    push(`#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=${(3 * m.td) / PARTS_PER_SEGMENT}`, 'other');
    push(`#EXT-X-PART-INF:PART-TARGET=${partDur(m)}`, 'other');
  }
  push(`#EXT-X-MEDIA-SEQUENCE:${first}`, 'mediaSequence');
  const ds = dsnOf(m, first) - (m.disc[first - m.base] ? 1 : 0);
  if (m.writeDiscSeq || ds !== 0) push(`#EXT-X-DISCONTINUITY-SEQUENCE:${ds}`, 'discontinuitySequence');
  let t = Date.UTC(2026, 0, 1);
  for (let k = m.base; k < first; k++) t += m.durMs[k - m.base] as number;
  for (let msn = first; msn <= last; msn++) {
    const i = msn - m.base;
    // A cue tag belongs to the segment it precedes: it is held with it (issue 15, item 6).
    if (m.cueEvery > 0 && msn % m.cueEvery === 0) push(`#EXT-X-CUE-POINT:ID=${msn}`, msn);
    if (m.keyEvery > 0 && (msn === first || msn % m.keyEvery === 0)) push(`#EXT-X-KEY:METHOD=AES-128,URI="${keyOf(m, msn)}"`, msn);
    if (m.disc[i]) push('#EXT-X-DISCONTINUITY', msn);
    if (m.fmp4 && (msn === first || m.disc[i])) push(`#EXT-X-MAP:URI="${mapOf(m, msn)}"`, msn);
    if (m.pdt && (msn === first || m.disc[i])) push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(t).toISOString()}`, msn);
    if (m.ll && msn > last - SEGMENTS_WITH_PARTS) {
      for (let p = 0; p < PARTS_PER_SEGMENT; p++)
        push(`#EXT-X-PART:DURATION=${partDur(m)},URI="p${msn}.${p}.mp4"${p === 0 ? ',INDEPENDENT=YES' : ''}`, msn);
    }
    push(`#EXTINF:${((m.durMs[i] as number) / 1000).toFixed(3)},`, msn);
    if (m.byteRanges) {
      const r = rangeOf(msn);
      push(`#EXT-X-BYTERANGE:${r.length}${msn === first || msn % 3 === 0 ? '@' + r.offset : ''}`, msn);
    }
    push(uriOf(m, msn), msn);
    t += m.durMs[i] as number;
  }
  if (!m.endList) {
    for (let p = 0; p < m.partialParts; p++) push(`#EXT-X-PART:DURATION=${partDur(m)},URI="p${last + 1}.${p}.mp4"`, 'partial');
    if (m.ll) push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p${last + 1}.${m.partialParts}.mp4"`, 'partial');
    for (let j = 0; j < m.reports; j++) {
      const lastMsn = m.partialParts > 0 ? last + 1 : last;
      const lastPart = m.partialParts > 0 ? m.partialParts - 1 : PARTS_PER_SEGMENT - 1;
      push(`#EXT-X-RENDITION-REPORT:URI="../r${j}/index.m3u8",LAST-MSN=${lastMsn}${m.ll ? `,LAST-PART=${lastPart}` : ''}`, 'report');
    }
  } else push('#EXT-X-ENDLIST', 'other');
  push('# end', 'other');
  const eol = m.crlf ? '\r\n' : '\n';
  return { lines, owners, text: lines.join(eol) + (m.trailingNewline ? eol : ''), first, last };
}
