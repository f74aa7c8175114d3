import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OriginDispatcher } from '../../src/origin/OriginDispatcher.js';

type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on port 0 answering by path; `asked` lists every path it was sent. */
async function server(routes: Record<string, Route>): Promise<{ url: string; asked: string[]; server: Server }> {
  const asked: string[] = [];
  const s = createServer((req, res) => {
    asked.push(req.url ?? '');
    const route = routes[(req.url ?? '').split('?')[0]!];
    if (route === undefined) res.writeHead(404, { 'content-length': 0 }).end();
    else route(req, res);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, asked, server: s };
}

const redirect =
  (status: number, location: string | undefined): Route =>
  (_req, res) => {
    res.writeHead(status, { 'content-length': 0, ...(location === undefined ? {} : { location }) }).end();
  };
const body =
  (text: string): Route =>
  (_req, res) => {
    res.writeHead(200, { 'content-length': Buffer.byteLength(text) }).end(text);
  };

const servers: Server[] = [];
const dispatchers: OriginDispatcher[] = [];
afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.destroy()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function setup(routes: Record<string, Route>, base = '/live') {
  const origin = await server(routes);
  servers.push(origin.server);
  const d = new OriginDispatcher({
    url: `${origin.url}${base}`,
    connections: 2,
    headersTimeoutMs: 5_000,
    bodyTimeoutMs: 5_000,
    onConnect: () => {},
  });
  dispatchers.push(d);
  return { origin, d };
}

describe('OriginDispatcher: redirects stay on the configured origin', () => {
  it('follows a same-origin redirect and says where the response finally came from', async () => {
    const { origin, d } = await setup({ '/live/old.m3u8': redirect(302, 'new/index.m3u8?v=2'), '/live/new/index.m3u8': body('#EXTM3U') });
    const { res, path } = await d.get('/old.m3u8');
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toBe('#EXTM3U');
    expect(path).toBe('/new/index.m3u8?v=2');
    expect(origin.asked).toEqual(['/live/old.m3u8', '/live/new/index.m3u8?v=2']);
  });

  it('a response not redirected keeps the path asked for', async () => {
    const { d } = await setup({ '/live/a.ts': body('x') });
    const { res, path } = await d.get('/a.ts');
    await res.body.dump();
    expect(path).toBe('/a.ts');
  });

  it('refuses a redirect to another host, which is never asked (nor is its path sent to this origin)', async () => {
    const other = await server({ '/live/seg1.ts': body('elsewhere') });
    servers.push(other.server);
    const { origin, d } = await setup({ '/live/ext.ts': redirect(302, `${other.url}/live/seg1.ts`) });
    await expect(d.get('/ext.ts')).rejects.toMatchObject({ code: 'ERR_EDGE_ORIGIN_REDIRECT', details: { status: 302 } });
    expect(other.asked).toEqual([]);
    expect(origin.asked).toEqual(['/live/ext.ts']);
  });

  it('refuses a redirect on the same host but out of the base path, and one without a Location', async () => {
    const { origin, d } = await setup({
      '/live/out.ts': redirect(301, '/private/seg1.ts'),
      '/live/none.ts': redirect(307, undefined),
      '/private/seg1.ts': body('no'),
    });
    await expect(d.get('/out.ts')).rejects.toMatchObject({ code: 'ERR_EDGE_ORIGIN_REDIRECT' });
    await expect(d.get('/none.ts')).rejects.toMatchObject({ code: 'ERR_EDGE_ORIGIN_REDIRECT' });
    expect(origin.asked).toEqual(['/live/out.ts', '/live/none.ts']);
  });

  it('follows three redirects, refuses a fourth and a loop with the same code', async () => {
    const { d } = await setup({
      '/live/r1': redirect(302, '/live/r2'),
      '/live/r2': redirect(302, '/live/r3'),
      '/live/r3': redirect(302, '/live/r4'),
      '/live/r4': redirect(302, '/live/r5'),
      '/live/r5': body('end'),
      '/live/a': redirect(302, '/live/b'),
      '/live/b': redirect(302, '/live/a'),
    });
    const three = await d.get('/r2');
    expect(await three.res.body.text()).toBe('end');
    expect(three.path).toBe('/r5');
    await expect(d.get('/r1')).rejects.toMatchObject({ code: 'ERR_EDGE_ORIGIN_REDIRECT' });
    await expect(d.get('/a')).rejects.toMatchObject({ code: 'ERR_EDGE_ORIGIN_REDIRECT' });
  });

  it('a 300 is a status, not a redirect to follow; request() follows nothing', async () => {
    const { origin, d } = await setup({
      '/live/choice': redirect(300, '/live/x'),
      '/live/moved': redirect(302, '/live/x'),
      '/live/x': body('x'),
    });
    await expect(d.get('/choice')).rejects.toMatchObject({ code: 'ERR_EDGE_ORIGIN_STATUS', details: { status: 300 } });
    const raw = await d.request('/moved');
    await raw.body.dump();
    expect(raw.statusCode).toBe(302);
    expect(origin.asked).toEqual(['/live/choice', '/live/moved']);
  });
});

describe('OriginDispatcher: idle connections', () => {
  it("closes an idle connection after its own keep-alive, not after the origin's longer Keep-Alive hint", async () => {
    // Four requests held until all four arrived: four pooled connections, as an LL stream's
    // parallel part fetches open. The origin keeps idle connections 60 s and says so (Node's
    // server sends `Keep-Alive: timeout=60`).
    const waiting: ServerResponse[] = [];
    const origin = await server({
      '/live/part.m4s': (_req, res) => {
        waiting.push(res);
        if (waiting.length === 4) for (const r of waiting.splice(0)) r.writeHead(200, { 'content-length': 2 }).end('ok');
      },
    });
    origin.server.keepAliveTimeout = 60_000;
    servers.push(origin.server);
    const d = new OriginDispatcher({
      url: `${origin.url}/live`,
      connections: 4,
      headersTimeoutMs: 5_000,
      bodyTimeoutMs: 5_000,
      onConnect: () => {},
      keepAliveMs: 1_000,
    });
    dispatchers.push(d);
    const bodies = await Promise.all([1, 2, 3, 4].map(async () => (await d.request('/part.m4s')).body.text()));
    expect(bodies).toEqual(['ok', 'ok', 'ok', 'ok']);
    const open = (): Promise<number> => new Promise((r, j) => origin.server.getConnections((e, n) => (e ? j(e) : r(n))));
    expect(await open()).toBe(4);
    // Closed by the edge after its 1 s (before: kept for the origin's 60 s, less undici's 2 s).
    const deadline = Date.now() + 5_000;
    while ((await open()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await open()).toBe(0);
  });
});
