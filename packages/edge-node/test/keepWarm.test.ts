import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { metricValue, startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';

// An edge keeps its backhaul warm with GET on its origin's root (OriginClient.probe). When that
// origin is a parent edge, the parent answers it itself and counts it as a probe, not as a
// rejected receiver request (a 404 per child edge every originProbeMs would drown real ones).
let origin: TestOrigin | undefined;
const edges: RunningEdge[] = [];
afterEach(async () => {
  for (const e of edges.splice(0).reverse()) await e.close();
  await origin?.close();
  origin = undefined;
});

const metrics = async (e: RunningEdge): Promise<string> => (await request(`${e.url}/metrics`)).body.text();

describe("an origin's root at an edge", () => {
  it("a parent answers its edges' keep-warm GET / with 200 and counts it as a probe, not a 404", async () => {
    origin = await startTestOrigin();
    const parent = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, role: 'parent', logLevel: 'silent', originProbeMs: 0 }));
    edges.push(parent);
    const child = await startEdge(createEdgeConfig({ origin: parent.url, port: 0, hold: 1, logLevel: 'silent', originProbeMs: 50 }));
    edges.push(child);
    await until(
      async () => (metricValue(await metrics(parent), 'ethle_requests_total', { kind: 'probe', status: '200' }) ?? 0) >= 3,
      'three keep-warm probes at the parent',
    );
    const m = await metrics(parent);
    expect(metricValue(m, 'ethle_requests_total', { kind: 'rejected', status: '404' })).toBeUndefined();
    expect(origin.requests('/')).toBe(0); // answered by the parent, never forwarded
    // The child counts the parent as answering: it is ready.
    const ready = await request(`${child.url}/readyz`);
    expect(ready.statusCode).toBe(200);
    await ready.body.dump();
  });

  it("several origins: /{name}/ and / are an origin's root; an unknown name is still a 404", async () => {
    origin = await startTestOrigin();
    const edge = await startEdge(
      createEdgeConfig({
        origins: [
          { name: 'east', url: origin.url },
          { name: 'west', url: origin.url },
        ],
        port: 0,
        hold: 0,
        logLevel: 'silent',
        originProbeMs: 0,
      }),
    );
    edges.push(edge);
    for (const path of ['/', '/east/', '/west']) {
      const r = await request(`${edge.url}${path}`);
      expect([path, r.statusCode, await r.body.text()]).toEqual([path, 200, 'ok\n']);
    }
    const unknown = await request(`${edge.url}/north/`);
    await unknown.body.dump();
    expect(unknown.statusCode).toBe(404);
    const m = await metrics(edge);
    expect(metricValue(m, 'ethle_requests_total', { kind: 'probe', status: '200' })).toBe(3);
    expect(metricValue(m, 'ethle_requests_total', { kind: 'rejected', status: '404' })).toBe(1);
  });
});
