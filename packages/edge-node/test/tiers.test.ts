import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { metricValue, startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';

// Issue 21, tiers: origin → parent (prefetches, never holds) → 2 edges (hold) → 50 receivers.
// One flow per segment per tier: the origin serves each segment once, each edge fetches it once
// from the parent; x is decided (and applied) only at the edges near the receivers.
let origin: TestOrigin;
const edges: RunningEdge[] = [];
afterEach(async () => {
  for (const e of edges.splice(0)) await e.close();
  await origin?.close();
});

const URI = /^[^#\s].*$/gm;

describe('tiers', () => {
  it('origin → parent → 2 edges → 50 receivers: one origin request per segment, one parent request per segment per edge', async () => {
    origin = await startTestOrigin({ segmentBytes: 256 * 1024, window: 6 });
    origin.produce(6);
    const parent = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, role: 'parent', logLevel: 'silent', originProbeMs: 0 }));
    edges.push(parent);
    const fromChildren = new Map<string, number>();
    parent.events.on('segment-request', (e) => fromChildren.set(e.path, (fromChildren.get(e.path) ?? 0) + 1));
    // maxHold 1: an edge does not split a fetch into ranges (ranges would be several requests).
    const children = await Promise.all(
      [0, 1].map(() =>
        startEdge(createEdgeConfig({ origin: parent.url, port: 0, hold: 1, maxHold: 1, logLevel: 'silent', originProbeMs: 0 })),
      ),
    );
    edges.push(...children);

    const parentManifest = await request(`${parent.url}/live/a/index.m3u8`);
    expect(parentManifest.headers['x-ethle-role']).toBe('parent');
    expect(parentManifest.headers['x-ethle-hold-segments']).toBe('0');
    await parentManifest.body.dump();

    const receivers = Array.from({ length: 50 }, async (_, i) => {
      const edge = children[i % 2]!;
      const m = await request(`${edge.url}/live/a/index.m3u8`, { headers: { 'cmcd-session': `sid="r${i}"` } });
      expect(m.headers['x-ethle-hold-segments']).toBe('1');
      const uris = (await m.body.text()).match(URI) ?? [];
      for (const uri of uris.slice(-3)) {
        const r = await request(new URL(uri, `${edge.url}/live/a/index.m3u8`));
        const n = Number(/seg(\d+)\.ts/.exec(uri)![1]);
        expect(Buffer.from(await r.body.arrayBuffer()).equals(origin.body(n))).toBe(true);
      }
    });
    await Promise.all(receivers);
    for (const [path, n] of origin.allRequests()) if (/seg\d+\.ts/.test(path)) expect(n, path).toBe(1);
    for (const [path, n] of fromChildren) expect(n, path).toBeLessThanOrEqual(2);
    expect(fromChildren.size).toBeGreaterThan(0);
  });

  it('an edge in front of an edge that holds does not hold again (and says why)', async () => {
    origin = await startTestOrigin({ window: 6 });
    origin.produce(6);
    const upstream = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 2, logLevel: 'silent', originProbeMs: 0 }));
    const downstream = await startEdge(createEdgeConfig({ origin: upstream.url, port: 0, hold: 2, logLevel: 'silent', originProbeMs: 0 }));
    edges.push(upstream, downstream);
    const r = await request(`${downstream.url}/live/a/index.m3u8`);
    const text = await r.body.text();
    expect(r.headers['x-ethle-hold-segments']).toBe('0');
    expect(text).toMatch(/seg3\.ts/); // held twice would end at seg1
    expect(text).not.toMatch(/seg4\.ts/);
  });

  it("an edge behind a parent decides x with the parent's backhaul RTT added to its own", async () => {
    origin = await startTestOrigin({ window: 6 });
    origin.produce(6);
    const parent = await startEdge(
      createEdgeConfig({ origin: origin.url, port: 0, role: 'parent', backhaulRttMs: 80, logLevel: 'silent', originProbeMs: 0 }),
    );
    const child = await startEdge(createEdgeConfig({ origin: parent.url, port: 0, hold: 1, logLevel: 'silent', originProbeMs: 0 }));
    edges.push(parent, child);
    const r = await request(`${parent.url}/live/a/index.m3u8`);
    expect(r.headers['x-ethle-upstream-rtt-ms']).toBe('80.000');
    await r.body.dump();
    await (await request(`${child.url}/live/a/index.m3u8`)).body.dump();
    // Loopback to the parent is well under a millisecond: the child's RTT is the parent's 80 ms and that.
    const rtt = await until(
      async () => metricValue(await (await request(`${child.url}/metrics`)).body.text(), 'ethle_backhaul_rtt_ms', { origin: 'origin' }),
      'child RTT',
    );
    expect(rtt).toBeGreaterThanOrEqual(80);
    expect(rtt).toBeLessThan(100);
  });

  it('a parent refuses to be configured to hold', () => {
    expect(() => createEdgeConfig({ origin: 'http://x', role: 'parent', hold: 2 })).toThrow(/parent never holds/);
  });
});
