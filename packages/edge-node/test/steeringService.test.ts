import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { createSteeringServiceConfig } from '../src/steer/SteeringServiceConfig.js';
import { startSteeringService, type RunningSteeringService } from '../src/steer/startSteeringService.js';
import { startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';
import { freePort } from './helpers/freePort.js';

// Issue 21, a steering service apart from the edges: two real edges on two loopback addresses
// (same port, as two hosts), the service reading their /_ethle/load; players' steering requests
// get the edges by health, then load; a player stays put within the hysteresis.
let origin: TestOrigin;
let steer: RunningSteeringService | undefined;
const edges: RunningEdge[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await steer?.close();
  steer = undefined;
  for (const e of edges.splice(0)) await e.close();
  await origin?.close();
});

type Manifest = {
  TTL: number;
  'PATHWAY-PRIORITY': string[];
  'PATHWAY-CLONES'?: Array<{ ID: string; 'URI-REPLACEMENT': { HOST: string } }>;
};
const steering = async (query: string): Promise<Manifest> =>
  (await (await request(`${steer!.url}/steering?${query}`)).body.json()) as Manifest;

/** Open `n` idle receiver connections to an edge (each counts in its load report). */
async function openConnections(url: string, n: number): Promise<void> {
  const u = new URL(url);
  await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<void>((resolve, reject) => {
          const s = connect(Number(u.port), u.hostname, () => resolve());
          s.on('error', reject);
          sockets.push(s);
        }),
    ),
  );
}

describe('steering service (ethle-edge steer)', () => {
  it('orders edges by health then load, players stay within the hysteresis and move in shares beyond; a dead edge drops out within one TTL; the edges name it as steering URI', async () => {
    origin = await startTestOrigin({ variantBandwidth: 2_000_000 });
    origin.produce(6);
    const port = await freePort();
    const urlA = `http://127.0.0.1:${port}`;
    const urlB = `http://127.0.0.2:${port}`;
    const steerPort = await freePort();
    const steeringUrl = `http://127.0.0.1:${steerPort}/steering`;
    const edge = (host: string, pathway: string, url: string) =>
      startEdge(
        createEdgeConfig({
          origin: origin.url,
          host,
          port,
          hold: 1,
          logLevel: 'silent',
          originProbeMs: 200,
          maxConnections: 20,
          fleet: { pathway, publicUrl: url, steeringUrl },
        }),
      );
    const a = await edge('127.0.0.1', 'edge-a', urlA);
    let b = await edge('127.0.0.2', 'edge-b', urlB);
    edges.push(a, b);
    const orders: string[][] = [];
    // The service's random sample per request, set by the test (whether a player moves).
    let u = 0.99;
    steer = await startSteeringService(
      createSteeringServiceConfig({
        edges: [
          { id: 'edge-a', url: urlA },
          { id: 'edge-b', url: urlB },
        ],
        origin: { id: 'origin', url: origin.url },
        port: steerPort,
        ttlSeconds: 1,
        probeMs: 100,
        probeTimeoutMs: 1000,
        hysteresis: 0.1,
        riseAfter: 2,
      }),
      (o) => orders.push(o),
      () => u,
    );

    // The edges' manifests name the service, with the pathway of the player's first request.
    const mv = await (await request(`${urlA}/live/master.m3u8`)).body.text();
    expect(mv).toContain(`#EXT-X-CONTENT-STEERING:SERVER-URI="${steeringUrl}?ethle_pathway=edge-a",PATHWAY-ID="edge-a"`);

    // Both ready, both idle: a player stays where it is; clones carry each player's host form.
    await until(() => steer!.service.status().every((e) => e.health.ready), 'both edges ready');
    expect((await steering('_HLS_pathway=edge-a'))['PATHWAY-PRIORITY']).toEqual(['edge-a', 'edge-b', 'origin']);
    expect((await steering('ethle_pathway=edge-b'))['PATHWAY-PRIORITY'][0]).toBe('edge-b');
    const m = await steering('_HLS_pathway=edge-a');
    expect(m.TTL).toBe(1);
    expect(m['PATHWAY-CLONES']!.map((c) => [c.ID, c['URI-REPLACEMENT'].HOST])).toEqual([
      ['edge-b', '127.0.0.2'],
      ['origin', '127.0.0.1'],
    ]);
    expect((await steering('_DASH_pathway=%22edge-a%22'))['PATHWAY-CLONES']![0]!['URI-REPLACEMENT'].HOST).toBe(`127.0.0.2:${port}`);

    // edge-a gets 10 of its 20 connections (load ≥ 0.5 against edge-b's ~0.05): new players go to
    // edge-b; of edge-a's players, a share of about (0.5 − 0.05) / 1.0 moves — u below it moves.
    await openConnections(urlA, 10);
    await until(() => steer!.service.status().find((e) => e.id === 'edge-a')!.load >= 0.5, 'edge-a loaded');
    expect(steer.service.order).toEqual(['edge-b', 'edge-a']);
    expect((await steering(''))['PATHWAY-PRIORITY'][0]).toBe('edge-b');
    u = 0.3;
    expect((await steering('_HLS_pathway=edge-a'))['PATHWAY-PRIORITY'][0]).toBe('edge-b');
    u = 0.6;
    expect((await steering('_HLS_pathway=edge-a'))['PATHWAY-PRIORITY'][0]).toBe('edge-a');
    // edge-b gets as many as edge-a has (loads within 10 % of each other): nobody moves, whatever u.
    const connectionsOf = (id: string): number => steer!.service.status().find((e) => e.id === id)!.connections!;
    const target = connectionsOf('edge-a');
    await openConnections(urlB, target - connectionsOf('edge-b'));
    await until(() => connectionsOf('edge-b') >= target, 'edge-b as loaded');
    u = 0;
    expect((await steering('_HLS_pathway=edge-a'))['PATHWAY-PRIORITY'][0]).toBe('edge-a');
    expect((await steering('_HLS_pathway=edge-b'))['PATHWAY-PRIORITY'][0]).toBe('edge-b');
    expect(orders[0]).toEqual(['edge-b', 'edge-a']);

    // edge-b dies: it leaves the priority within one TTL of players asking.
    const closedAt = Date.now();
    for (const s of sockets.splice(0)) s.destroy();
    await b.close();
    edges.splice(edges.indexOf(b), 1);
    await until(
      async () => (await steering('_HLS_pathway=edge-b'))['PATHWAY-PRIORITY'].join() === 'edge-a,origin',
      'edge-b dropped',
      5_000,
    );
    expect(Date.now() - closedAt).toBeLessThanOrEqual(1000 * m.TTL);

    // Back on the same address: steered to again (after riseAfter good probes: rankPathways.test).
    b = await edge('127.0.0.2', 'edge-b', urlB);
    edges.push(b);
    await until(() => steer!.service.status().find((e) => e.id === 'edge-b')!.health.ready, 'edge-b back');
    expect((await steering('_HLS_pathway=edge-a'))['PATHWAY-PRIORITY']).toContain('edge-b');
  });

  it('config errors name the option', () => {
    expect(() => createSteeringServiceConfig({ edges: [] })).toThrow(/edges/);
    expect(() =>
      createSteeringServiceConfig({
        edges: [
          { id: 'a', url: 'http://x' },
          { id: 'a', url: 'http://y' },
        ],
      }),
    ).toThrow(/duplicate/);
    expect(() => createSteeringServiceConfig({ edges: [{ id: 'a', url: 'http://x' }], ttlSeconds: 1.5 })).toThrow(/ttlSeconds/);
  });
});
