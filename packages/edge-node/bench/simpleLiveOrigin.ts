import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A minimal wall-clock HLS origin for benchmarks when @ethle/live-origin is not available:
 * `/live/{name}/index.m3u8` with segments of `segmentSeconds` and `bitrateMbps` (2M-2s =
 * 500,000-byte segments), a window of 10, 404 before a segment is complete, and the live
 * origin's `/stats` JSON ({ requests: { path: n }, bytesSent }; `?reset=1` zeroes it).
 */
export async function startSimpleLiveOrigin(opts: { bitrateMbps?: number; segmentSeconds?: number } = {}) {
  const seconds = opts.segmentSeconds ?? 2;
  const bytes = Math.round(((opts.bitrateMbps ?? 2) * 1e6 * seconds) / 8);
  const body = Buffer.alloc(bytes, 0x47);
  const t0 = Date.now();
  let requests: Record<string, number> = {};
  let bytesSent = 0;
  const produced = (): number => Math.floor((Date.now() - t0) / (seconds * 1000)) + 5; // 5 at start
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/stats') {
      const out = JSON.stringify({ requests, bytesSent, openConnections: 0 });
      if (req.url?.includes('reset=1')) {
        requests = {};
        bytesSent = 0;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(out);
      return;
    }
    requests[path] = (requests[path] ?? 0) + 1;
    const m = /^\/live\/[^/]+\/(index\.m3u8|seg(\d+)\.ts)$/.exec(path);
    const n = produced();
    if (m?.[1] === 'index.m3u8') {
      const first = Math.max(0, n - 10);
      let s = `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:${seconds}\n#EXT-X-MEDIA-SEQUENCE:${first}\n`;
      for (let i = first; i < n; i++) s += `#EXTINF:${seconds.toFixed(3)},\nseg${i}.ts\n`;
      res
        .writeHead(200, {
          'content-type': 'application/vnd.apple.mpegurl',
          'content-length': Buffer.byteLength(s),
          'cache-control': 'max-age=1',
        })
        .end(s);
      bytesSent += Buffer.byteLength(s);
    } else if (m?.[2] !== undefined && Number(m[2]) < n) {
      res.writeHead(200, { 'content-type': 'video/mp2t', 'content-length': body.length }).end(body);
      bytesSent += body.length;
    } else res.writeHead(404, { 'content-length': 0 }).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
