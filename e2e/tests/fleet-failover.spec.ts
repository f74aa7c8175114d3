import { expect, test } from '@playwright/test';
import { createEdgeConfig, startEdge, type RunningEdge } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import config from '../playwright.config.js';
import { openPlayer, playerErrors, waitForPlayback } from '../fixtures/playerPage.js';
import { freePort } from '../../packages/edge-node/test/helpers/freePort.js';

// The two edges sit on 127.0.0.1 and 127.0.0.2: Chromium's local-network-access checks treat a
// page on one loopback address fetching from another as a request to an unknown address space
// and refuse it. Real fleets are separate hosts; here the check is switched off for this spec.
const launch = config.use!.launchOptions!;
test.use({ launchOptions: { ...launch, args: [...(launch.args ?? []), '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessRespectPreflightResults,BlockInsecurePrivateNetworkRequests'] } });

// Issue 21, failover with content steering (HLS and DASH-IF): two edges of one fleet (the same
// port on two loopback addresses, as two hosts), a player playing through edge-a. Edge-a dies; the
// player moves to the next pathway the steering manifest named (edge-b, a host clone) and plays on.
let origin: LiveOrigin;
let a: RunningEdge | undefined;
let b: RunningEdge;


test.afterEach(async () => {
  await a?.close();
  a = undefined;
  await b?.close();
  await origin?.close();
});

for (const player of ['hls', 'dash'] as const)
test(`${player}: the player moves to the next edge of the fleet when its edge dies`, async ({ page }) => {
  test.setTimeout(90_000);
  origin = await startOrigin({ port: 0, streams: ['2M-2s'] });
  const port = await freePort();
  const urlA = `http://127.0.0.1:${port}`;
  const urlB = `http://127.0.0.2:${port}`;
  const fleet = (self: string, url: string, peer: string, peerUrl: string) => ({ pathway: self, publicUrl: url, peers: [{ id: peer, url: peerUrl }], originPathway: 'origin', ttlSeconds: 1 });
  // One fleet secret: a receiver's session token from edge-a is good at edge-b.
  const sessionTokens = { secret: 'failover-spec-fleet-secret' };
  a = await startEdge(createEdgeConfig({ origin: origin.url, host: '127.0.0.1', port, hold: 1, drainMs: 0, logLevel: 'silent', sessionTokens, fleet: fleet('edge-a', urlA, 'edge-b', urlB) }));
  b = await startEdge(createEdgeConfig({ origin: origin.url, host: '127.0.0.2', port, hold: 1, logLevel: 'silent', sessionTokens, fleet: fleet('edge-b', urlB, 'edge-a', urlA) }));
  // Annotated, not asserted: a dead edge-a cannot be asked (hls.js), and dash.js asks edge-b for
  // the MPD (with the token of its Location) only at its next MPD refresh.
  const adopted: Array<{ session: string; x: number; requests: number }> = [];
  b.events.on('session-adopted', (e) => adopted.push(e));
  const onB: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(urlB)) onB.push(r.url());
  });
  await openPlayer(page, { base: urlA, src: player === 'hls' ? `${urlA}/live/master.m3u8` : `${urlA}/live/2M-2s/manifest.mpd`, player, probe: true });
  await waitForPlayback(page, 4);
  expect(onB).toEqual([]);
  const killedAt = Date.now();
  await a.close();
  a = undefined;
  // The player goes on: media from edge-b, the playhead advances well past the kill.
  await expect.poll(() => onB.some((u) => /\.m4s/.test(u)), { timeout: 30_000 }).toBe(true);
  const movedAfterMs = Date.now() - killedAt;
  await waitForPlayback(page, 6);
  // dash.js reports every failed request to the dead edge (its steering server included) as an
  // error event; none may concern the edge it moved to.
  const errors = await playerErrors(page);
  if (player === 'hls') expect(errors).toEqual([]);
  else expect(errors.filter((e) => e.includes(urlB))).toEqual([]);
  const stalls = await page.evaluate(() => (window as any).probe.report().stalls as { count: number; totalMs: number });
  // The goal: at most one segment duration (2 s) of stall for a failover.
  expect(stalls.totalMs).toBeLessThanOrEqual(2000);
  test.info().annotations.push({ type: 'failover', description: `first segment from edge-b ${movedAfterMs} ms after edge-a closed; stalls ${JSON.stringify(stalls)}; adopted at edge-b ${JSON.stringify(adopted)}` });
});
