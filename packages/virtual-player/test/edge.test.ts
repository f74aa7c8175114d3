/**
 * Through the ETHLE edge holding 2 segments, the same receiver plays 2 × segment duration later
 * than straight from the origin: the hold is visible in true latency, as in the paper's Table II.
 */
import { createEdgeConfig, startEdge, type RunningEdge } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualPlayer, type VirtualPlayer } from '../src/index.js';
import { nextSegmentListed, waitFor } from './helpers/waitFor.js';

const STREAM = '2M-2s';
const L = 2;
const HOLD = 2;
let origin: LiveOrigin;
let edge: RunningEdge;
const players: VirtualPlayer[] = [];

beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: [STREAM] });
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: HOLD, logLevel: 'silent' }));
});
afterAll(async () => {
  await Promise.all(players.map((p) => p.close()));
  await edge?.close();
  await origin?.close();
});

describe.each([
  ['hls', 'index.m3u8'],
  ['dash', 'manifest.mpd'],
] as const)('%s', (player, file) => {
  it(`through the edge at hold ${HOLD}: latency − direct latency = ${HOLD} × ${L} s ± 0.5 s, the hold declared`, async () => {
    const path = `/live/${STREAM}/${file}`;
    if (player === 'hls') await nextSegmentListed(`${origin.url}${path}`);
    const [direct, viaEdge] = await Promise.all([
      startVirtualPlayer({ url: `${origin.url}${path}`, player }),
      startVirtualPlayer({ url: `${edge.url}${path}`, player }),
    ]);
    players.push(direct, viaEdge);
    await waitFor('5 latency samples each', () => direct.report().latency.samples >= 5 && viaEdge.report().latency.samples >= 5, 25_000);
    const d = direct.report();
    const e = viaEdge.report();
    expect(d.stalls.count + e.stalls.count).toBe(0);
    expect(e.holdSeconds).toBe(HOLD * L);
    expect(Math.abs(e.latency.mean! - d.latency.mean! - HOLD * L)).toBeLessThanOrEqual(0.5);
  }, 45_000);
});
