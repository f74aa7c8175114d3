import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { metricSum, metricValue, startTestOrigin, until, type TestOrigin } from './helpers/startTestOrigin.js';

// Issue 36, minor: a flood of made-up session ids (a CMCD sid each) inflated ethle_receivers to
// maxSessions and pushed the real viewers' sessions out.
let origin: TestOrigin | undefined;
let edge: RunningEdge | undefined;
afterEach(async () => {
  await edge?.close();
  await origin?.close();
  edge = origin = undefined;
});

describe('a session flood', () => {
  it(
    '300 one-request session ids: ethle_receivers counts the 3 players, whose sessions stay; the table stays bounded',
    { timeout: 30_000 },
    async () => {
      origin = await startTestOrigin();
      origin.produce(6);
      edge = await startEdge(
        createEdgeConfig({ origin: origin.url, port: 0, hold: 1, originProbeMs: 0, logLevel: 'silent', maxSessions: 40 }),
      );
      const playlist = (sid: string) =>
        request(`${edge!.url}/live/a/index.m3u8`, { headers: { 'cmcd-session': `sid="${sid}"` } }).then((r) => r.body.dump());
      // Three players: a playlist, and the reload a segment later.
      for (const p of ['p1', 'p2', 'p3']) await playlist(p);
      await new Promise((r) => setTimeout(r, 600));
      for (const p of ['p1', 'p2', 'p3']) await playlist(p);
      for (let i = 0; i < 300; i++) await playlist(`junk-${i}`);
      const metrics = async () => (await request(`${edge!.url}/metrics`)).body.text();
      // The gauges are set by the edge's housekeeping, once a second.
      await until(async () => metricValue(await metrics(), 'ethle_sessions_unconfirmed') === 10, 'housekeeping', 5_000);
      const m = await metrics();
      expect(metricSum(m, 'ethle_receivers')).toBe(3);
      expect(metricValue(m, 'ethle_sessions')).toBe(13);
    },
  );
});
