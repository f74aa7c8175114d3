// Serves GET /bytes/N (N zero bytes) on the given port, all interfaces: a bulk-transfer source
// run inside a namespace for link validation. GET /paced/N/R sends N bytes at R Mbit/s, as an edge
// relays a segment still arriving over the backhaul. Prints "ready" once listening.
import { createServer, type ServerResponse } from 'node:http';

const port = Number(process.argv[2] ?? 9000);
const chunk = Buffer.alloc(64 * 1024);
createServer((req, res) => {
  if (req.url === '/page')
    return void res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>origin</title><p id="ok">served from the origin namespace</p>');
  const paced = /^\/paced\/(\d{1,10})\/(\d{1,4})$/.exec(req.url ?? '');
  if (paced) return void pace(res, Number(paced[1]), Number(paced[2]));
  const m = /^\/bytes\/(\d{1,10})$/.exec(req.url ?? '');
  if (!m) return void res.writeHead(404).end();
  let left = Number(m[1]);
  res.writeHead(200, { 'content-length': left, 'content-type': 'application/octet-stream' });
  const pump = () => {
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      left -= n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}).listen(port, '0.0.0.0', () => console.log('ready'));

/** N bytes at `mbps`, a 64 kB chunk at a time on a fixed schedule (no drift from late timers). */
function pace(res: ServerResponse, bytes: number, mbps: number): void {
  res.writeHead(200, { 'content-length': bytes, 'content-type': 'application/octet-stream' });
  const everyMs = (chunk.length * 8) / (mbps * 1e3);
  const t0 = performance.now();
  let sent = 0;
  const next = () => {
    const n = Math.min(chunk.length, bytes - sent);
    res.write(n === chunk.length ? chunk : chunk.subarray(0, n));
    sent += n;
    if (sent >= bytes) return void res.end();
    setTimeout(next, Math.max(0, t0 + (sent / chunk.length) * everyMs - performance.now()));
  };
  next();
}
