import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEdgeConfig, startEdge, type RunningEdge } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { SwEdge } from '@ethle/sw';

// Issue 17: both edges mount the core's HoldPolicy, so for the same inputs — backhaul RTT, radio
// throughput, the stream's advertised bitrate — the worker and the Node edge hold the same x.
let origin: LiveOrigin;
let edge: RunningEdge;
const RTT_MS = 224;
const RAN_MBPS = 60;

beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: ['15M-2s', '50M-2s'] });
  edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 'auto', backhaulRttMs: RTT_MS, defaultRanMbps: RAN_MBPS, logLevel: 'silent', originProbeMs: 0 }));
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
});

async function swHold(url: string): Promise<string | null> {
  const sw = new SwEdge((input, init) => fetch(input, init));
  sw.configure({ origins: [origin.url], hold: 'auto', context: { rttMs: RTT_MS, ranMbps: RAN_MBPS } });
  const r = await sw.manifest(new Request(url));
  await r.text();
  return r.headers.get('x-ethle-hold-segments');
}

describe('the worker and the Node edge decide x alike', () => {
  it.each([
    ['15M-2s', 'index.m3u8'],
    ['50M-2s', 'index.m3u8'],
    ['15M-2s', 'manifest.mpd'],
    ['50M-2s', 'manifest.mpd'],
  ])('%s %s', async (stream, file) => {
    const node = await fetch(`${edge.url}/live/${stream}/${file}`);
    await node.text();
    const nodeX = node.headers.get('x-ethle-hold-segments');
    expect(Number(nodeX)).toBeGreaterThan(0);
    expect(await swHold(`${origin.url}/live/${stream}/${file}`)).toBe(nodeX);
  });
});
