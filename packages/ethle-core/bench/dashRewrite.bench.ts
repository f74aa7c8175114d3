// DASH MPD hold throughput: holdMpd on a live $Number$ MPD (AST shift) and a SegmentTimeline MPD
// (trim), with and without routing. Run: npx tsx packages/ethle-core/bench/dashRewrite.bench.ts
import { createEdgeRouter, holdMpd } from '../src/index.js';

const AST = '2026-01-01T00:00:00Z';
const number = `<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="${AST}" minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT120S">
  <Period id="0" start="PT0S">
    <AdaptationSet contentType="video" mimeType="video/mp4"><SegmentTemplate timescale="12800" duration="25600" startNumber="0" initialization="dash/v/init.mp4" media="dash/v/$Number$.m4s"/>
      <Representation id="v" bandwidth="15000000" width="3840" height="2160"/></AdaptationSet>
    <AdaptationSet contentType="audio" mimeType="audio/mp4"><SegmentTemplate timescale="48000" duration="96000" startNumber="0" initialization="dash/a/init.mp4" media="dash/a/$Number$.m4s"/>
      <Representation id="a" bandwidth="32000"/></AdaptationSet>
  </Period>
  <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="http://origin/time"/>
</MPD>`;
const s = Array.from({ length: 10 }, (_, i) => `<S t="${i * 25600}" d="25600"/>`).join('');
const timeline = number
  .replace(
    /<SegmentTemplate timescale="12800" duration="25600" startNumber="0"([^>]*)\/>/,
    `<SegmentTemplate timescale="12800"$1><SegmentTimeline>${s}</SegmentTimeline></SegmentTemplate>`,
  )
  .replace(
    /<SegmentTemplate timescale="48000" duration="96000" startNumber="0"([^>]*)\/>/,
    `<SegmentTemplate timescale="48000"$1><SegmentTimeline><S t="0" d="96000" r="9"/></SegmentTimeline></SegmentTemplate>`,
  );
const route = createEdgeRouter({ manifestUrl: 'http://origin/live/15M-2s/manifest.mpd', sessionToken: 'abc' });

function bench(name: string, f: () => unknown): void {
  for (let i = 0; i < 2000; i++) f();
  const rates: number[] = [];
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 400) {
      f();
      n += 1;
    }
    rates.push(n / ((performance.now() - t0) / 1000));
  }
  rates.sort((a, b) => a - b);
  console.log(`${name.padEnd(40)} ${Math.round(rates[2]!).toLocaleString('en')} rewrites/s (median of 5)`);
}

bench('$Number$, hold 2 (AST shift)', () => holdMpd(number, { hold: 2 }));
bench('$Number$, hold 2 + routing with token', () => holdMpd(number, { hold: 2, route }));
bench('SegmentTimeline, hold 2 (trim)', () => holdMpd(timeline, { hold: 2, nowMs: Date.parse(AST) + 1e6 }));
