import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { startTestOrigin, type TestOrigin } from './helpers/startTestOrigin.js';

let a: TestOrigin;
let b: TestOrigin;
let edge: RunningEdge;
afterEach(async () => {
  await edge?.close();
  await a?.close();
  await b?.close();
});

describe('several origins', () => {
  it('serves each under /{name}/ and nothing else', async () => {
    a = await startTestOrigin({ segmentBytes: 1000 });
    b = await startTestOrigin({ segmentBytes: 2000 });
    a.produce(5);
    b.produce(5);
    edge = await startEdge(
      createEdgeConfig({
        origins: [
          { name: 'east', url: a.url },
          { name: 'west', url: b.url },
        ],
        port: 0,
        hold: 1,
        logLevel: 'silent',
      }),
    );
    const pa = await request(`${edge.url}/east/live/s/index.m3u8`);
    const ta = await pa.body.text();
    expect(pa.statusCode).toBe(200);
    expect(ta).toContain('seg3.ts');
    expect(ta).not.toContain('seg4.ts');
    const sa = await request(`${edge.url}/east/live/s/seg1.ts`);
    expect((await sa.body.arrayBuffer()).byteLength).toBe(1000);
    const sb = await request(`${edge.url}/west/live/s/seg1.ts`);
    expect((await sb.body.arrayBuffer()).byteLength).toBe(2000);
    const none = await request(`${edge.url}/north/live/s/seg1.ts`);
    await none.body.dump();
    expect(none.statusCode).toBe(404);
    expect(a.requests('/live/s/seg1.ts')).toBe(1);
    expect(b.requests('/live/s/seg1.ts')).toBe(1);
  });
});
