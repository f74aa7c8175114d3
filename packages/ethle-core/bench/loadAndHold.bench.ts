// One origin version as a stream's loader handles it: loadManifest, then the held texts of three
// policy groups (x = 0, 1, 2). Since parse-once the text is read once for all of it; run at an
// earlier commit to compare.
// Run: npx tsx packages/ethle-core/bench/loadAndHold.bench.ts   (BENCH_SECONDS per case, default 2)
import { loadManifest } from '../src/index.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const T0 = Date.parse('2026-01-01T00:00:00Z');
const hlsUrl = 'http://origin/live/15M-2s/index.m3u8';
const mpdUrl = 'http://origin/live/15M-2s/timeline.mpd';

// 60 segments (2 min of 2 s), fMP4 with a MAP and a PROGRAM-DATE-TIME per segment.
let hls = '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:1000\n#EXT-X-MAP:URI="init.mp4"\n';
for (let n = 1000; n < 1060; n++) hls += `#EXT-X-PROGRAM-DATE-TIME:${new Date(T0 + n * 2000).toISOString()}\n#EXTINF:2.000,\n${n}.m4s\n`;
const s = Array.from({ length: 60 }, (_, i) => `<S t="${i * 25600}" d="25600"/>`).join('');
const mpd = `<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="${new Date(T0).toISOString()}" minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT120S">
  <Period id="0" start="PT0S">
    <AdaptationSet contentType="video" mimeType="video/mp4"><SegmentTemplate timescale="12800" initialization="dash/v/init.mp4" media="dash/v/t$Time$.m4s"><SegmentTimeline>${s}</SegmentTimeline></SegmentTemplate>
      <Representation id="v" bandwidth="15000000" width="3840" height="2160"/></AdaptationSet>
    <AdaptationSet contentType="audio" mimeType="audio/mp4"><SegmentTemplate timescale="48000" initialization="dash/a/init.mp4" media="dash/a/t$Time$.m4s"><SegmentTimeline><S t="0" d="96000" r="59"/></SegmentTimeline></SegmentTemplate>
      <Representation id="a" bandwidth="32000"/></AdaptationSet>
  </Period>
</MPD>`;
const nowMs = T0 + 200_000;
const opts = (manifestUrl: string) => ({
  manifestUrl,
  originBase: 'http://origin',
  routing: 'edge' as const,
  edgePathPrefix: '',
  nowMs,
  previousCarry: undefined,
});

function bench(name: string, f: () => unknown): void {
  for (let i = 0; i < 500; i++) f();
  const rates: number[] = [];
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < (SECONDS * 1000) / 5) {
      f();
      n += 1;
    }
    rates.push(n / ((performance.now() - t0) / 1000));
  }
  rates.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(56)} ${Math.round(rates[2]!).toLocaleString('en')} versions/s median, ${Math.round(rates[4]!).toLocaleString('en')} best of 5`,
  );
}

bench('HLS 60 segments: loadManifest + hold x = 0, 1, 2', () => {
  const v = loadManifest(hls, opts(hlsUrl));
  for (const x of [0, 1, 2]) v.hold(x, undefined, nowMs);
});
bench('DASH timeline 60 S: loadManifest + hold x = 0, 1, 2', () => {
  const v = loadManifest(mpd, opts(mpdUrl));
  for (const x of [0, 1, 2]) v.hold(x, undefined, nowMs);
});
