// The demo's web server: serves the built pages (packages/player-demo/dist), the collector the
// pages post their runs to (/api/runs), and /api/config (where the origin and the edge are).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };
const MAX_RUNS = 200;
const MAX_BODY = 4 * 1024 * 1024;

/**
 * @param {{ port?: number, host?: string, config: object, resultsFile?: object }} o
 * @returns {Promise<{ url: string, runs: Map<string, object>, close(): Promise<void> }>}
 */
export async function startDemoServer(o) {
  const runs = new Map();
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const json = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (path === '/api/config') return json(200, o.config);
    if (path === '/api/runs' && req.method === 'GET') return json(200, { v: 1, title: 'live runs (this demo)', runs: [...runs.values()] });
    if (path === '/api/runs' && req.method === 'POST') {
      let size = 0;
      const chunks = [];
      try {
        for await (const c of req) {
          size += c.length;
          if (size > MAX_BODY) return json(413, { error: 'run too large' });
          chunks.push(c);
        }
      } catch {
        // The page went away mid-post (or the server is closing): nothing to store, nobody to answer.
        return;
      }
      try {
        const run = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (typeof run?.id !== 'string' || !run.scenario || !run.report) return json(400, { error: 'expected a run with id, scenario and report' });
        runs.delete(run.id);
        runs.set(run.id, run);
        while (runs.size > MAX_RUNS) runs.delete(runs.keys().next().value);
        return json(204, {});
      } catch {
        return json(400, { error: 'not JSON' });
      }
    }
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
    runs,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        // A page left open polls and keeps its keep-alive connections busy: close them, or this never resolves.
        server.closeAllConnections();
      }),
  };
}
