// Serves GET /bytes/N (N zero bytes) on the given port, all interfaces: a bulk-transfer source
// run inside a namespace for link validation. Prints "ready" once listening.
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 9000);
const chunk = Buffer.alloc(64 * 1024);
createServer((req, res) => {
  if (req.url === '/page') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>origin</title><p id="ok">served from the origin namespace</p>');
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
