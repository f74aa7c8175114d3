import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { EdgeEvents } from '../src/events/EdgeEvents.js';
import { SESSION_FACTS_KEEP_MS, SessionFacts } from '../src/sessions/SessionFacts.js';
import { startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';

// What the edge tells about each receiver session and each response: the session's facts
// (GET /_ethle/sessions, and reported to a QoE collector, joined there by the CMCD sid), Age and
// CMSD on manifests and segments, readable by pages on other origins.
let origin: TestOrigin;
let edge: RunningEdge;
let collector: Server | undefined;
afterEach(async () => {
  await edge?.close();
  await origin?.close();
  await new Promise((r) => (collector ? collector.close(r) : r(undefined)));
  collector = undefined;
});

const cmcd = (sid: string) => `CMCD=${encodeURIComponent(`sid="${sid}"`)}`;
async function get(path: string, headers: Record<string, string> = {}) {
  const res = await request(`${edge.url}${path}`, { headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers as Record<string, string>, text: body.toString('utf8') };
}

async function start(extra: Parameters<typeof createEdgeConfig>[0] = {}) {
  origin = await startTestOrigin({ segmentBytes: 200_000 });
  origin.produce(6);
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 2, logLevel: 'silent', ...extra }));
}

describe('standard headers', () => {
  it('manifests: Age since the origin version, CMSD-Static ot=m, CMSD-Dynamic with the edge; exposed to CORS', async () => {
    await start();
    const m = await get(`/live/a/index.m3u8?${cmcd('r1')}`, { origin: 'http://player.example' });
    expect(m.status).toBe(200);
    expect(m.headers['age']).toMatch(/^\d+$/);
    expect(m.headers['cmsd-static']).toBe('ot=m,sf=h,st=l');
    expect(m.headers['cmsd-dynamic']).toBe('"ethle-edge"');
    const exposed = m.headers['access-control-expose-headers']!.split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['Age', 'CMSD-Static', 'CMSD-Dynamic']));
  });

  it('segments: Age on what the cache answers, growing while the edge holds it; d; etp once the radio is measured', async () => {
    await start();
    await get(`/live/a/index.m3u8?${cmcd('r1')}`);
    // The newest visible segment, then a held one the edge prefetched: both from the cache.
    const first = await get(`/live/a/seg3.ts?${cmcd('r1')}`);
    expect(first.headers['cmsd-static']).toMatch(/^sf=h,st=l,d=\d+$/);
    if (first.headers['x-ethle-cache'] === 'miss') expect(first.headers['age']).toBeUndefined();
    await until(async () => (await get(`/live/a/seg5.ts`)).headers['x-ethle-cache'] === 'hit', 'the held segment prefetched');
    // A hit of 200 kB to r1 is a radio sample (taken when it finished): the next response says
    // what the edge measured, as CMSD etp.
    expect((await get(`/live/a/seg3.ts?${cmcd('r1')}`)).headers['x-ethle-cache']).toBe('hit');
    const again = await get(`/live/a/seg3.ts?${cmcd('r1')}`);
    expect(again.headers['cmsd-dynamic']).toMatch(/^"ethle-edge";etp=\d+$/);
    // Another receiver, not measured yet: no etp.
    expect((await get(`/live/a/seg3.ts?${cmcd('r9')}`)).headers['cmsd-dynamic']).toBe('"ethle-edge"');
    // A held segment's Age: how long it has sat at the edge, a second and more as time passes.
    await until(async () => Number((await get('/live/a/seg5.ts')).headers['age']) >= 1, 'Age of the held segment reaching 1 s');
  });
});

describe('session facts', () => {
  it('GET /_ethle/sessions/{sid}: x held, manifests, segment requests by cache result; since= lists changes', async () => {
    await start();
    await get(`/live/a/index.m3u8?${cmcd('r1')}`);
    await get(`/live/a/index.m3u8?${cmcd('r1')}`);
    await get(`/live/a/seg3.ts?${cmcd('r1')}`);
    await get(`/live/a/seg3.ts?${cmcd('r1')}`);
    const r = await get('/_ethle/sessions/r1');
    expect(r.status).toBe(200);
    const [f] = JSON.parse(r.text).sessions;
    expect(f).toMatchObject({ session: 'r1', hold: 2, manifests: 2, hits: expect.any(Number) });
    expect(f.stream).toContain('/live/a/index.m3u8');
    expect(f.hits + f.coalesced + f.misses).toBe(2);
    expect((await get('/_ethle/sessions/nobody')).status).toBe(404);
    expect(JSON.parse((await get('/_ethle/sessions?since=0')).text).sessions.map((s: { session: string }) => s.session)).toEqual(['r1']);
    expect(JSON.parse((await get(`/_ethle/sessions?since=${Date.now() + 60_000}`)).text).sessions).toEqual([]);
    expect((await get('/_ethle/sessions?since=yesterday')).status).toBe(400);
  });

  async function fakeCollector(): Promise<{
    url: string;
    bodies: { edge: string; sessions: { session: string; hits: number; coalesced: number; misses: number; manifests: number }[] }[];
  }> {
    const bodies: { edge: string; sessions: { session: string; hits: number; coalesced: number; misses: number; manifests: number }[] }[] =
      [];
    collector = createServer((req, res) => {
      let s = '';
      req.on('data', (c: Buffer) => (s += c.toString()));
      req.on('end', () => {
        if (req.url === '/v1/edge' && req.method === 'POST') bodies.push(JSON.parse(s));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"stored":1}');
      });
    });
    await new Promise<void>((r) => collector!.listen(0, '127.0.0.1', r));
    return { url: `http://127.0.0.1:${(collector.address() as { port: number }).port}`, bodies };
  }

  it('reports them to a collector (POST /v1/edge) every interval, labelled', async () => {
    const c = await fakeCollector();
    await start({ collector: { url: c.url, label: 'mec-test', intervalMs: 100 } });
    await get(`/live/a/index.m3u8?${cmcd('r2')}`);
    await until(() => c.bodies.some((b) => b.sessions.some((s) => s.session === 'r2')), 'a report with r2');
    expect(c.bodies[0]).toMatchObject({ edge: 'mec-test', sessions: [expect.objectContaining({ session: 'r2', hold: 2, manifests: 1 })] });
  });

  it('sends the last facts when it closes', async () => {
    const c = await fakeCollector();
    await start({ collector: { url: c.url, intervalMs: 3_600_000 } });
    await get(`/live/a/index.m3u8?${cmcd('r3')}`);
    await get(`/live/a/seg3.ts?${cmcd('r3')}`);
    expect(c.bodies).toEqual([]);
    const label = new URL(edge.url).host;
    await edge.close();
    expect(c.bodies).toHaveLength(1);
    expect(c.bodies[0]!.edge).toBe(label);
    const f = c.bodies[0]!.sessions.find((s) => s.session === 'r3')!;
    expect(f.manifests).toBe(1);
    expect(f.hits + f.coalesced + f.misses).toBe(1);
  });

  it('forgets a session not seen for SESSION_FACTS_KEEP_MS: viewers who come and go do not fill the table', () => {
    const events = new EdgeEvents();
    let t = 0;
    const facts = new SessionFacts(events, () => t, 50_000);
    const manifest = (session: string): void => events.emit('manifest-request', { session, stream: 's', hold: 2, group: undefined });
    // 30 minutes of churn, a new viewer every 100 ms (one manifest request each), and one viewer
    // who stays, asking every 5 minutes.
    for (let i = 0; i < 18_000; i++) {
      t = i * 100;
      manifest(`r${i}`);
      if (i % 3000 === 0) manifest('stays');
    }
    // The viewers of the last 10 minutes and the one who stays (before: every viewer ever seen,
    // up to 50,000 pairs, so the table grew for hours of churn).
    const recent = 18_000 - Math.ceil((t - SESSION_FACTS_KEEP_MS) / 100);
    expect(facts.size).toBe(recent + 1);
    expect(facts.of('r0')).toEqual([]);
    expect(facts.of(`r${18_000 - recent}`)).toHaveLength(1);
    expect(facts.of('stays')).toEqual([expect.objectContaining({ firstAtMs: 0, manifests: 6 })]);
    facts.close();
  });

  it('refuses a collector that is not an http(s) URL, naming the option', () => {
    expect(() => createEdgeConfig({ origin: 'http://o.example', collector: { url: 'ftp://c.example' } })).toThrow(/collector\.url/);
    expect(() => createEdgeConfig({ origin: 'http://o.example', collector: { url: 'http://c.example', label: 'two words' } })).toThrow(
      /collector\.label/,
    );
  });
});

describe('CMCD nor as a prefetch hint', () => {
  const nor = (next: string) => `CMCD=${encodeURIComponent(`nor="${next}",sid="h1"`)}`;

  it('fetches the next object a player names when no planner covers it, once; a planned segment is left to the planner', async () => {
    await start();
    const hints: { path: string }[] = [];
    edge.events.on('prefetch-hint', (e) => hints.push(e));
    // No manifest asked for: the edge plans nothing for /live/a, so seg1 is fetched on the hint.
    await get(`/live/a/seg0.ts?${nor('seg1.ts')}`);
    expect(hints.map((h) => h.path)).toEqual(['/live/a/seg1.ts']);
    await until(() => origin.requests('/live/a/seg1.ts') === 1, 'the hinted fetch');
    const next = await get('/live/a/seg1.ts');
    expect(next.headers['x-ethle-cache']).not.toBe('miss');
    expect(origin.requests('/live/a/seg1.ts')).toBe(1);
    // Hinted again: already at the edge, nothing more.
    await get(`/live/a/seg0.ts?${nor('seg1.ts')}`);
    expect(hints).toHaveLength(1);
    // Once the stream is known, its segments are the planner's: no hint fetch.
    await get(`/live/a/index.m3u8?${cmcd('h1')}`);
    await get(`/live/a/seg3.ts?${nor('seg4.ts')}`);
    expect(hints).toHaveLength(1);
    // Not a media object, or another host: ignored.
    await get(`/live/a/seg3.ts?${nor('../../admin/a/pause')}`);
    await get(`/live/a/seg3.ts?${nor('http://elsewhere.example/x.ts')}`);
    expect(hints).toHaveLength(1);
  });

  it('decodes a URL-encoded nor as players send it (CTA-5004), asking the origin for the object it names', async () => {
    await start();
    const hints: { path: string }[] = [];
    edge.events.on('prefetch-hint', (e) => hints.push(e));
    // hls.js: the next object relative to this one, percent-encoded inside the CMCD string.
    await get(`/live/b/seg0.ts?${nor(encodeURIComponent('../b/seg1.ts'))}`);
    expect(hints.map((h) => h.path)).toEqual(['/live/b/seg1.ts']);
    await until(() => origin.requests('/live/b/seg1.ts') === 1, 'the hinted fetch');
    // Not valid percent-encoding: no hint at all.
    await get(`/live/b/seg0.ts?${nor('%E0%A4%A')}`);
    expect(hints).toHaveLength(1);
  });
});
