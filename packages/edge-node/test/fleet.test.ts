import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';
import { freePort } from './helpers/freePort.js';
import { startEdgeProcess } from './helpers/startEdgeProcess.js';

// Issue 21, content steering: two edges of one fleet (same port on two loopback addresses, as
// edges on two hosts) publish a steering manifest that orders the ready ones first and the origin
// last; the multivariant playlist each serves names the steering server and its own pathway.
let origin: TestOrigin;
const edges: RunningEdge[] = [];
afterEach(async () => {
  for (const e of edges.splice(0)) await e.close();
  await origin?.close();
});

describe('content steering in a fleet', () => {
  it('a steering manifest with ready peers first and the origin last; a peer that goes down leaves it within a TTL', async () => {
    origin = await startTestOrigin({ variantBandwidth: 2_000_000 });
    origin.produce(6);
    const port = await freePort();
    const urlA = `http://127.0.0.1:${port}`;
    const urlB = `http://127.0.0.2:${port}`;
    const fleet = (self: string, url: string, peer: string, peerUrl: string) => ({
      pathway: self,
      publicUrl: url,
      peers: [{ id: peer, url: peerUrl }],
      originPathway: 'origin',
      ttlSeconds: 1,
    });
    const a = await startEdge(
      createEdgeConfig({
        origin: origin.url,
        host: '127.0.0.1',
        port,
        hold: 1,
        logLevel: 'silent',
        originProbeMs: 200,
        fleet: fleet('edge-a', urlA, 'edge-b', urlB),
      }),
    );
    const b = await startEdge(
      createEdgeConfig({
        origin: origin.url,
        host: '127.0.0.2',
        port,
        hold: 1,
        logLevel: 'silent',
        originProbeMs: 200,
        fleet: fleet('edge-b', urlB, 'edge-a', urlA),
      }),
    );
    edges.push(a, b);

    // Edge-a's players ask edge-b for steering (and edge-b's, edge-a): never the edge they are on,
    // once edge-a has seen edge-b ready (edge-b started after edge-a's first probe).
    const mv = await until(
      async () => {
        const t = await (await request(`${urlA}/live/master.m3u8`)).body.text();
        return t.includes(urlB) ? t : undefined;
      },
      'edge-a seeing edge-b',
      5_000,
    );
    expect(mv).toContain(`#EXT-X-CONTENT-STEERING:SERVER-URI="${urlB}/_ethle/steering?ethle_pathway=edge-a",PATHWAY-ID="edge-a"`);
    expect(mv).toMatch(/#EXT-X-STREAM-INF:.*PATHWAY-ID="edge-a"/);

    const steering = async (current?: string) =>
      (await (await request(`${urlA}/_ethle/steering${current ? `?_HLS_pathway=${current}` : ''}`)).body.json()) as {
        'PATHWAY-PRIORITY': string[];
        'PATHWAY-CLONES': Array<{ 'BASE-ID': string; ID: string; 'URI-REPLACEMENT': { HOST: string } }>;
        TTL: number;
      };
    await until(async () => (await steering())['PATHWAY-PRIORITY'].join() === 'edge-a,edge-b,origin', 'both ready', 5_000);
    const m = await steering('edge-b');
    expect(m['PATHWAY-PRIORITY']).toEqual(['edge-b', 'edge-a', 'origin']);
    expect(m['PATHWAY-CLONES'].map((c) => [c['BASE-ID'], c.ID, c['URI-REPLACEMENT'].HOST])).toEqual([
      ['edge-b', 'edge-a', '127.0.0.1'],
      ['edge-b', 'origin', '127.0.0.1'],
    ]);
    expect(m.TTL).toBe(1);

    // dash.js names its pathway quoted, current first, and gets hosts with their ports.
    const dash = (await (await request(`${urlA}/_ethle/steering?_DASH_pathway=%22edge-b%2Cedge-a%22`)).body.json()) as typeof m;
    expect(dash['PATHWAY-PRIORITY'][0]).toBe('edge-b');
    expect(dash['PATHWAY-CLONES'][0]!['URI-REPLACEMENT'].HOST).toBe(`127.0.0.1:${port}`);
    await b.close();
    edges.splice(edges.indexOf(b), 1);
    await until(async () => (await steering('edge-b'))['PATHWAY-PRIORITY'].join() === 'edge-a,origin', 'edge-b left out', 5_000);
  });

  // Issue 36, major 5: an edge that hangs (SIGSTOP) does not refuse, so its own steering answers
  // hang with its segments. Its players ask a peer, which leaves the hung edge out.
  it(
    'a hung edge (SIGSTOP): its players ask its peer for steering, which leaves it out within TTL + probe timeout, and names itself to ask next',
    { timeout: 30_000 },
    async () => {
      origin = await startTestOrigin({ variantBandwidth: 2_000_000 });
      origin.produce(6);
      const port = await freePort();
      const urlA = `http://127.0.0.1:${port}`;
      const urlB = `http://127.0.0.2:${port}`;
      const fleet = (self: string, url: string, peer: string, peerUrl: string) => ({
        pathway: self,
        publicUrl: url,
        peers: [{ id: peer, url: peerUrl }],
        originPathway: 'origin',
        ttlSeconds: 1,
      });
      const a = await startEdgeProcess({
        origin: origin.url,
        host: '127.0.0.1',
        port,
        hold: 1,
        originProbeMs: 200,
        fleet: fleet('edge-a', urlA, 'edge-b', urlB),
      });
      try {
        const b = await startEdge(
          createEdgeConfig({
            origin: origin.url,
            host: '127.0.0.2',
            port,
            hold: 1,
            logLevel: 'silent',
            originProbeMs: 200,
            fleet: fleet('edge-b', urlB, 'edge-a', urlA),
          }),
        );
        edges.push(b);
        type Steering = { 'PATHWAY-PRIORITY': string[]; 'RELOAD-URI': string };
        const steeringAt = async (url: string, current: string) =>
          (await (await request(`${url}/_ethle/steering?_HLS_pathway=${current}`, { headersTimeout: 1000 })).body.json()) as Steering;
        await until(
          async () => (await steeringAt(urlB, 'edge-a'))['PATHWAY-PRIORITY'].join() === 'edge-a,edge-b,origin',
          'both ready',
          5_000,
        );
        // The manifests of edge-a name edge-b's steering; edge-b's answer to edge-a's players keeps
        // them where they are (both ready) and names edge-b to ask next.
        await until(
          async () =>
            (await (await request(`${urlA}/live/master.m3u8`)).body.text()).includes(
              `SERVER-URI="${urlB}/_ethle/steering?ethle_pathway=edge-a"`,
            ),
          'edge-a naming edge-b',
          5_000,
        );
        // That first request names no pathway of the player's own (dash.js's does not): it is
        // answered for edge-a's player, which stays where it is.
        expect(
          ((await await (await request(`${urlB}/_ethle/steering?ethle_pathway=edge-a`)).body.json()) as Steering)['PATHWAY-PRIORITY'][0],
        ).toBe('edge-a');
        expect((await steeringAt(urlB, 'edge-a'))['RELOAD-URI']).toBe(`${urlB}/_ethle/steering?ethle_pathway=edge-a`);
        // A player edge-b steers to itself asks edge-a next (edge-a ready).
        expect((await steeringAt(urlB, 'edge-b'))['RELOAD-URI']).toBe(`${urlA}/_ethle/steering?ethle_pathway=edge-b`);

        a.signal('SIGSTOP');
        const stoppedAt = Date.now();
        // The hung edge: connections are accepted, nothing answers.
        await expect(request(`${urlA}/_ethle/steering?_HLS_pathway=edge-a`, { headersTimeout: 1500 })).rejects.toThrow();
        await until(
          async () => (await steeringAt(urlB, 'edge-a'))['PATHWAY-PRIORITY'].join() === 'edge-b,origin',
          'edge-a left out',
          10_000,
        );
        // TTL 1 s: a probe every second, each given at most a second.
        expect(Date.now() - stoppedAt).toBeLessThan(1500 + 2000 + 1000);
        const moved = await steeringAt(urlB, 'edge-a');
        // Nobody else is ready: edge-b answers its new players itself.
        expect(moved['RELOAD-URI']).toBe(`${urlB}/_ethle/steering?ethle_pathway=edge-b`);
        // Back (SIGCONT): edge-a is ready again and named for edge-b's players to ask.
        a.signal('SIGCONT');
        await until(
          async () => (await steeringAt(urlB, 'edge-b'))['RELOAD-URI'] === `${urlA}/_ethle/steering?ethle_pathway=edge-b`,
          'edge-a back',
          10_000,
        );
      } finally {
        await a.stop();
      }
    },
  );

  it('fleet config errors name the option', () => {
    expect(() => createEdgeConfig({ origin: 'http://x', fleet: { pathway: 'a b', publicUrl: 'http://e' } })).toThrow(/fleet\.pathway/);
    expect(() =>
      createEdgeConfig({ origin: 'http://x', fleet: { pathway: 'a', publicUrl: 'http://e', peers: [{ id: 'a', url: 'http://f' }] } }),
    ).toThrow(/unique/);
  });
});
