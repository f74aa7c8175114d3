import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';
import { freePort } from './helpers/freePort.js';

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
    const fleet = (self: string, url: string, peer: string, peerUrl: string) => ({ pathway: self, publicUrl: url, peers: [{ id: peer, url: peerUrl }], originPathway: 'origin', ttlSeconds: 1 });
    const a = await startEdge(createEdgeConfig({ origin: origin.url, host: '127.0.0.1', port, hold: 1, logLevel: 'silent', originProbeMs: 200, fleet: fleet('edge-a', urlA, 'edge-b', urlB) }));
    const b = await startEdge(createEdgeConfig({ origin: origin.url, host: '127.0.0.2', port, hold: 1, logLevel: 'silent', originProbeMs: 200, fleet: fleet('edge-b', urlB, 'edge-a', urlA) }));
    edges.push(a, b);

    const mv = await (await request(`${urlA}/live/master.m3u8`)).body.text();
    expect(mv).toContain(`#EXT-X-CONTENT-STEERING:SERVER-URI="${urlA}/_ethle/steering",PATHWAY-ID="edge-a"`);
    expect(mv).toMatch(/#EXT-X-STREAM-INF:.*PATHWAY-ID="edge-a"/);

    const steering = async (current?: string) => (await (await request(`${urlA}/_ethle/steering${current ? `?_HLS_pathway=${current}` : ''}`)).body.json()) as { 'PATHWAY-PRIORITY': string[]; 'PATHWAY-CLONES': Array<{ 'BASE-ID': string; ID: string; 'URI-REPLACEMENT': { HOST: string } }>; TTL: number };
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

  it('fleet config errors name the option', () => {
    expect(() => createEdgeConfig({ origin: 'http://x', fleet: { pathway: 'a b', publicUrl: 'http://e' } })).toThrow(/fleet\.pathway/);
    expect(() => createEdgeConfig({ origin: 'http://x', fleet: { pathway: 'a', publicUrl: 'http://e', peers: [{ id: 'a', url: 'http://f' }] } })).toThrow(/unique/);
  });
});
