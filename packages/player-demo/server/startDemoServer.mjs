// The demo's web server: serves the built pages (packages/player-demo/dist) and /api/config
// (where the origin, the edge and the QoE collector are). The pages' probes send their beacons
// to that collector (@ethle/collector, started by npm start), and the dashboard reads it.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/**
 * @param {{ port?: number, host?: string, config: object, resultsFile?: object }} o
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startDemoServer(o) {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const json = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (path === '/api/config') return json(200, o.config);
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(405, { error: 'method not allowed' });
    const rel = normalize(path === '/' ? '/index.html' : path).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = await readFile(join(DIST, rel));
      res.writeHead(200, { 'content-type': TYPES[extname(rel)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      json(404, { error: `not found: ${path}` });
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 5173, o.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    url: `http://${o.host ?? '127.0.0.1'}:${port}`,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        // A page left open polls and keeps its keep-alive connections busy: close them, or this never resolves.
        server.closeAllConnections();
      }),
  };
}
