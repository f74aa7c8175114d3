import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A live origin whose durations are as real encoders write them, not whole seconds: HLS with
 * `#EXTINF:4.004` (29.97 fps in 4 s segments), LL-HLS with parts of 1.00002 s, DASH with
 * `timescale="90000" duration="360360"`. The duration text is written exactly as given.
 *
 * - `hls` / `ll-hls`: hand-driven like startTestOrigin (produce() adds segments; no wall clock),
 *   `/live/a/index.m3u8`, segments `seg{n}.m4s`, LL parts `seg{n}.p{j}.m4s`.
 * - `dash`: `/live/a/manifest.mpd`, `$Number$` from the wall clock (availabilityStartTime
 *   `startSegments` segment durations ago), segments `seg{n}.m4s`, `init.mp4`.
 *
 * Every body is `segmentBytes` of a pattern that names its path (body(path)); requests are counted
 * per path.
 */
export async function startDurationOrigin(o: {
  kind: 'hls' | 'll-hls' | 'dash';
  /** EXTINF text, e.g. '4.004' (HLS), or ignored for DASH. */
  segmentSeconds?: string;
  /** LL-HLS: the part duration text and parts per segment. */
  partSeconds?: string;
  partsPerSegment?: number;
  /** DASH SegmentTemplate timing. */
  timescale?: number;
  durationTicks?: number;
  segmentBytes?: number;
  window?: number;
  /** DASH: segments available when the origin starts. */
  startSegments?: number;
}) {
  const segmentBytes = o.segmentBytes ?? 64 * 1024;
  const windowSize = o.window ?? 6;
  const k = o.partsPerSegment ?? 4;
  let produced = 0;
  const requests = new Map<string, number>();
  const segSeconds = o.kind === 'dash' ? (o.durationTicks ?? 360_360) / (o.timescale ?? 90_000) : Number(o.segmentSeconds ?? '4.004');
  const startedAt = Date.now() - (o.startSegments ?? 8) * segSeconds * 1000;

  const body = (path: string): Buffer => {
    const b = Buffer.alloc(segmentBytes);
    let h = 0;
    for (const c of path) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    for (let i = 0; i + 4 <= segmentBytes; i += 4) b.writeUInt32BE((h + i * 2_654_435_761) >>> 0, i);
    return b;
  };

  const playlist = (): string => {
    const first = Math.max(0, produced - windowSize);
    const target = Math.round(segSeconds) < segSeconds ? Math.ceil(segSeconds) : Math.round(segSeconds);
    let s = `#EXTM3U\n#EXT-X-VERSION:${o.kind === 'll-hls' ? 9 : 6}\n#EXT-X-TARGETDURATION:${target}\n`;
    if (o.kind === 'll-hls') {
      const part = Number(o.partSeconds ?? '1.00002');
      s += `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=${(3 * part).toFixed(5)}\n#EXT-X-PART-INF:PART-TARGET=${o.partSeconds ?? '1.00002'}\n`;
    }
    s += `#EXT-X-MEDIA-SEQUENCE:${first}\n#EXT-X-MAP:URI="init.mp4"\n`;
    for (let i = first; i < produced; i++) {
      // Parts on the newest three segments only, as LL-HLS servers list them.
      if (o.kind === 'll-hls' && i >= produced - 3) {
        for (let j = 0; j < k; j++)
          s += `#EXT-X-PART:DURATION=${o.partSeconds ?? '1.00002'},URI="seg${i}.p${j}.m4s"${j === 0 ? ',INDEPENDENT=YES' : ''}\n`;
      }
      s += `#EXTINF:${o.segmentSeconds ?? '4.004'},\nseg${i}.m4s\n`;
    }
    if (o.kind === 'll-hls') s += `#EXT-X-PRELOAD-HINT:TYPE=PART,URI="seg${produced}.p0.m4s"\n`;
    return s;
  };

  const mpd = (): string =>
    `<?xml version="1.0" encoding="UTF-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" profiles="urn:mpeg:dash:profile:isoff-live:2011" availabilityStartTime="${new Date(startedAt).toISOString()}" publishTime="${new Date().toISOString()}" minimumUpdatePeriod="PT2S" minBufferTime="PT2S" timeShiftBufferDepth="PT30S" suggestedPresentationDelay="PT6S">
  <Period id="p0" start="PT0S">
    <AdaptationSet id="1" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1">
      <SegmentTemplate timescale="${o.timescale ?? 90_000}" duration="${o.durationTicks ?? 360_360}" startNumber="0" media="seg$Number$.m4s" initialization="init.mp4"/>
      <Representation id="v" bandwidth="2000000" codecs="avc1.64001f" width="1280" height="720"/>
    </AdaptationSet>
  </Period>
</MPD>
`;

  const available = (n: number): boolean => (o.kind === 'dash' ? startedAt + (n + 1) * segSeconds * 1000 <= Date.now() : n < produced);

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (path === '/live/a/index.m3u8' && o.kind !== 'dash') {
      const t = playlist();
      res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl', 'content-length': Buffer.byteLength(t) }).end(t);
      return;
    }
    if (path === '/live/a/manifest.mpd' && o.kind === 'dash') {
      const t = mpd();
      res.writeHead(200, { 'content-type': 'application/dash+xml', 'content-length': Buffer.byteLength(t) }).end(t);
      return;
    }
    const m = /^\/live\/a\/(?:init\.mp4|seg(\d+)(?:\.p(\d+))?\.m4s)$/.exec(path);
    if (m === null || (m[1] !== undefined && !available(Number(m[1])))) {
      res.writeHead(404, { 'content-length': 0 }).end();
      return;
    }
    const b = body(path);
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': b.length }).end(b);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    body,
    segmentSeconds: segSeconds,
    /** DASH: the newest segment number available now. */
    newestNumber: (): number => Math.floor((Date.now() - startedAt) / (segSeconds * 1000)) - 1,
    produce(n = 1): void {
      produced += n;
    },
    requests: (path: string): number => requests.get(path) ?? 0,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
