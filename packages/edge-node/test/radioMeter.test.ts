import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { MIN_RADIO_BYTES, RadioMeter } from '../src/radio/RadioMeter.js';
import { startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';

describe('RadioMeter', () => {
  it('the rate over recent segment-scale responses; small ones say nothing', () => {
    const m = new RadioMeter();
    m.record('a', 1000, 1);
    expect(m.estimate('a')).toBeUndefined();
    m.record('a', 1_000_000, 100); // 80 Mbit/s
    m.record('a', 1_000_000, 400); // 20 Mbit/s
    const e = m.estimate('a')!;
    expect(e.mbps).toBeCloseTo(32, 5); // 2 MB in 0.5 s
    expect(e.recentMbps.map((x) => Math.round(x))).toEqual([80, 20]);
    expect(e.samples).toBe(2);
  });
  it('is bounded: the least recently measured receiver goes first', () => {
    const m = new RadioMeter(2);
    for (const r of ['a', 'b', 'c']) m.record(r, MIN_RADIO_BYTES, 10);
    expect(m.size).toBe(2);
    expect(m.estimate('a')).toBeUndefined();
  });
});

let origin: TestOrigin;
let edge: RunningEdge;
afterEach(async () => {
  await edge?.close();
  await origin?.close();
});

describe('the edge measures each receiver on its own responses', () => {
  it('a cached segment served to a receiver with a CMCD sid gives that receiver a rate', async () => {
    origin = await startTestOrigin({ segmentBytes: 512 * 1024 });
    origin.produce(6);
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, logLevel: 'silent', originProbeMs: 0 }));
    const get = async () =>
      (await request(`${edge.url}/live/a/seg1.ts`, { headers: { 'cmcd-session': 'sid="viewer-1"' } })).body.arrayBuffer();
    await get(); // a miss: paced by the origin, not measured
    expect(edge.stats().radioReceivers).toBe(0);
    await get(); // a hit: measured
    await until(() => edge.stats().radioReceivers === 1, 'measured');
  });
});
