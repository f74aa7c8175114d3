import { connect, type Socket } from 'node:net';
import { expect, test } from '@playwright/test';
import {
  createEdgeConfig,
  createSteeringServiceConfig,
  startEdge,
  startSteeringService,
  type RunningEdge,
  type RunningSteeringService,
} from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import config from '../playwright.config.js';
import { openPlayer, playerErrors, waitForPlayback } from '../fixtures/playerPage.js';
import { freePort } from '../../packages/edge-node/test/helpers/freePort.js';

// Two loopback addresses as two hosts: Chromium's local-network-access checks are off (see fleet-failover.spec).
const launch = config.use!.launchOptions!;
test.use({
  launchOptions: {
    ...launch,
    args: [
      ...(launch.args ?? []),
      '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests',
    ],
  },
});

// Issue 21, a handover steered by load: a player plays through edge-a; edge-a gets loaded, the
// steering service (`ethle-edge steer`) puts edge-b first, the player moves to it at its next
// steering reload — and edge-b goes on with the receiver's session. hls.js: the token of its
// multivariant playlist, edge-b asks edge-a (alive) for the state. dash.js: its next MPD refresh
// goes to edge-b's Location in the MPD, which carries the token with the state as of edge-a.
let origin: LiveOrigin | undefined;
let steer: RunningSteeringService | undefined;
const edges: RunningEdge[] = [];
const sockets: Socket[] = [];
test.afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await steer?.close();
  for (const e of edges.splice(0)) await e.close();
  await origin?.close();
});

for (const player of ['hls', 'dash'] as const)
  test(`${player === 'hls' ? 'hls.js' : 'dash.js'}: steered from a loaded edge to a lighter one, the session goes with it`, async ({
    page,
  }) => {
    test.setTimeout(60_000);
    origin = await startOrigin({ port: 0, streams: ['2M-2s'] });
    const [port, steerPort] = [await freePort(), await freePort()];
    const urlA = `http://127.0.0.1:${port}`;
    const urlB = `http://127.0.0.2:${port}`;
    const steeringUrl = `http://127.0.0.1:${steerPort}/steering`;
    const sessionTokens = { secret: 'handover-spec-fleet-secret' };
    // Auto hold, a long backhaul and a slow default radio: the receiver is hold-x at edge-a (x > 0).
    const edge = (host: string, pathway: string, url: string, peer: string, peerUrl: string) =>
      // Loopback with a told backhaul RTT: the paper's model, pinned (the default learns from the
      // origin's fetches, and loopback delivers like an origin that keeps its window).
      startEdge(
        createEdgeConfig({
          origin: origin!.url,
          host,
          port,
          hold: 'auto',
          backhaulRttMs: 150,
          segmentStart: 'slow-start',
          defaultRanMbps: 3,
          logLevel: 'silent',
          maxConnections: 40,
          sessionTokens,
          fleet: { pathway, publicUrl: url, steeringUrl, peers: [{ id: peer, url: peerUrl }] },
        }),
      );
    const a = await edge('127.0.0.1', 'edge-a', urlA, 'edge-b', urlB);
    const b = await edge('127.0.0.2', 'edge-b', urlB, 'edge-a', urlA);
    edges.push(a, b);
    // Edges of 40 connections: the player's own few are a tenth of one, so differences up to 0.3
    // (12 connections) move nobody; the 24 idle ones below do.
    steer = await startSteeringService(
      createSteeringServiceConfig({
        edges: [
          { id: 'edge-a', url: urlA },
          { id: 'edge-b', url: urlB },
        ],
        port: steerPort,
        ttlSeconds: 1,
        probeMs: 200,
        minLoadDifference: 0.3,
      }),
    );
    const adopted: Array<{ session: string; from: string; group: string | undefined; x: number; requests: number }> = [];
    b.events.on('session-adopted', (e) => adopted.push(e));
    const onB: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(urlB)) onB.push(r.url());
    });

    await openPlayer(page, {
      base: urlA,
      src: player === 'hls' ? `${urlA}/live/master.m3u8` : `${urlA}/live/2M-2s/manifest.mpd`,
      player,
      probe: true,
    });
    await waitForPlayback(page, 4);
    expect(onB).toEqual([]);
    // edge-a takes 24 more connections of its 40: the service puts edge-b first.
    await Promise.all(
      Array.from(
        { length: 24 },
        () => new Promise<void>((resolve, reject) => sockets.push(connect(port, '127.0.0.1', resolve).on('error', reject))),
      ),
    );
    const loadedAt = Date.now();
    await expect.poll(() => steer!.service.order[0], { timeout: 10_000 }).toBe('edge-b');
    await expect.poll(() => onB.some((u) => /\.m4s/.test(u)), { timeout: 15_000 }).toBe(true);
    // dash.js: MPD refreshes follow it to edge-b, carrying the token.
    if (player === 'dash') await expect.poll(() => onB.some((u) => /\.mpd\?ethle_session=e1\./.test(u)), { timeout: 10_000 }).toBe(true);
    const movedAfterMs = Date.now() - loadedAt;
    await waitForPlayback(page, 4);
    expect(await playerErrors(page)).toEqual([]);
    // edge-b took the session over from edge-a: same receiver, its requests counted, its x.
    expect(adopted).toEqual([expect.objectContaining({ from: 'edge-a', group: 'hold-x' })]);
    expect(adopted[0]!.x).toBeGreaterThan(0);
    expect(adopted[0]!.requests).toBeGreaterThan(2);
    const stalls = await page.evaluate(() => (window as any).probe.report().stalls as { count: number; totalMs: number });
    expect(stalls.totalMs).toBeLessThanOrEqual(2000);
    test.info().annotations.push({
      type: 'handover',
      description: `first segment from edge-b ${movedAfterMs} ms after edge-a was loaded; stalls ${JSON.stringify(stalls)}; adopted ${JSON.stringify(adopted)}`,
    });
  });
