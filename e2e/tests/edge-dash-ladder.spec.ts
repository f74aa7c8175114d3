import { expect, test } from '@playwright/test';
import { createEdgeConfig, startEdge, type RunningEdge } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { openPlayer, playerErrors } from '../fixtures/playerPage.js';

// Real dash.js and Shaka in Debian Chromium, default ABR, play the origin's DASH ladder (2M-2s and
// 15M-2s: one video AdaptationSet, a Representation each) through the edge with --hold 2. The edge
// prefetches what its receivers play: before any segment request the Representation players
// start on (core startRepresentation: the lowest above 1 Mbit/s, 2M-2s), then the ones they ask
// for, from the first segment asked of each. So every rung the origin was asked for is one the
// player asked for, no segment of a rung it switched to is fetched before the first it asked of
// that rung, and the player's first video segment is of the start rung.

const HOLD = 2;
const VIDEO_SEGMENT = /\/live\/([^/]+)\/dash\/v\/(\d+)\.m4s$/;
const START = '2M-2s';

/** The video segment numbers per rung of a list of paths. */
function byRung(paths: Iterable<string>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const p of paths) {
    const m = VIDEO_SEGMENT.exec(p);
    if (m === null) continue;
    const list = out.get(m[1]!) ?? [];
    list.push(Number(m[2]));
    out.set(m[1]!, list);
  }
  return out;
}
let origin: LiveOrigin | undefined;
let edge: RunningEdge | undefined;

test.beforeEach(async () => {
  origin = await startOrigin({ port: 0, streams: ['2M-2s', '15M-2s'] });
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: HOLD, logLevel: 'silent' }));
});
test.afterEach(async () => {
  await edge?.close();
  await origin?.close();
  edge = origin = undefined;
});

for (const player of ['dash', 'shaka'] as const) {
  test(`${player} plays the DASH ladder through the edge; the origin serves only the rungs it asks for`, async ({ page }) => {
    if (edge === undefined || origin === undefined) throw new Error('not started');
    const asked: string[] = [];
    page.on('request', (req) => void asked.push(new URL(req.url()).pathname));
    await openPlayer(page, { base: edge.url, src: `${edge.url}/live/master-2s.mpd`, player });
    const currentTime = () => page.evaluate(() => (document.getElementById('v') as HTMLVideoElement).currentTime);
    await expect.poll(currentTime, { timeout: 60_000 }).toBeGreaterThan(0);
    const t0 = await currentTime();
    await expect.poll(currentTime, { timeout: 40_000 }).toBeGreaterThan(t0 + 8);
    expect(await playerErrors(page)).toEqual([]);
    const played = byRung(asked);
    expect(played.keys().next().value).toBe(START);
    const served = byRung(Object.keys(origin.stats().requests));
    test.info().annotations.push({
      type: 'rungs',
      description: [...played].map(([r, ids]) => `${r}: player ${ids.length}, origin ${served.get(r)?.length ?? 0}`).join('; '),
    });
    expect(served.size).toBeGreaterThan(0);
    for (const [rung, ids] of served) {
      expect(played.has(rung), `the origin served ${rung}, which the player never asked for`).toBe(true);
      // The start rung is prefetched where a player would start before it asks; any other from
      // the player's first request of it on.
      if (rung !== START) expect(Math.min(...ids)).toBeGreaterThanOrEqual(Math.min(...played.get(rung)!));
    }
  });
}
