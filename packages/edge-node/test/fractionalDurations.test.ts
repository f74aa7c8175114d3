import { request } from 'undici';
import { describe, it, type TestContext } from 'vitest';
import { createEdgeConfig, startEdge, type EdgeConfigInput, type RunningEdge } from '../src/index.js';
import { startDurationOrigin } from './helpers/startDurationOrigin.js';
import { until } from './helpers/startTestOrigin.js';

// Issue 36, blocker 2: durations that are not whole milliseconds (29.97 fps content, LL-HLS parts,
// DASH at 90 kHz) made the per-fetch deadline a fraction; AbortSignal.timeout() threw, a queued
// fetch's throw was uncaught and the edge exited. Each case runs a real edge in front of an origin
// that writes the durations as encoders do, plays through it, and checks nothing escaped.
// The cases that wait on their origin's and edge's timers run side by side (each has its own
// origin and edge): what escapes the process while one runs is counted against every case running
// then. The LL-HLS cases, which play as fast as they can for 3 s, run one after the other after them.

async function start(
  { onTestFinished }: TestContext,
  o: Parameters<typeof startDurationOrigin>[0],
  extra: Partial<EdgeConfigInput> = {},
): Promise<{ origin: Awaited<ReturnType<typeof startDurationOrigin>>; edge: RunningEdge; escaped: unknown[]; edgeErrors: string[] }> {
  const escaped: unknown[] = [];
  const onEscape = (e: unknown): void => void escaped.push(e);
  process.on('unhandledRejection', onEscape);
  process.on('uncaughtException', onEscape);
  onTestFinished(() => {
    process.off('unhandledRejection', onEscape);
    process.off('uncaughtException', onEscape);
  });
  const origin = await startDurationOrigin(o);
  onTestFinished(() => origin.close());
  // A small fetch limit queues prefetches behind each other: the queued fetch's throw was the crash.
  const edge = await startEdge(
    createEdgeConfig({ origin: origin.url, port: 0, hold: 2, logLevel: 'silent', originProbeMs: 0, originMaxFetches: 1, ...extra }),
  );
  onTestFinished(() => edge.close());
  const edgeErrors: string[] = [];
  edge.events.on('error', (e) => edgeErrors.push(`${e.where}: ${e.error.message}`));
  return { origin, edge, escaped, edgeErrors };
}

async function get(edge: RunningEdge, path: string): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  const r = await request(`${edge.url}${path}`, { headersTimeout: 20_000, bodyTimeout: 20_000 });
  return { status: r.statusCode, headers: r.headers, body: Buffer.from(await r.body.arrayBuffer()) };
}

const uris = (text: string): string[] => text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));

describe('segment durations that are not whole milliseconds', () => {
  for (const seconds of ['4.004', '8.008', '3.6036']) {
    it.concurrent(`#EXTINF:${seconds}: held segments are prefetched and every segment is served; nothing escapes`, async (ctx) => {
      const { expect } = ctx;
      const { origin, edge, escaped, edgeErrors } = await start(ctx, { kind: 'hls', segmentSeconds: seconds });
      origin.produce(6);
      const first = await get(edge, '/live/a/index.m3u8');
      expect(first.status).toBe(200);
      const listed = uris(first.body.toString());
      expect(listed.at(-1)).toBe('seg3.m4s'); // seg4 and seg5 held
      // The planner prefetches the held ones (through the scheduler's queue: one fetch at a time).
      await until(() => origin.requests('/live/a/seg4.m4s') === 1 && origin.requests('/live/a/seg5.m4s') === 1, 'held segments prefetched');
      for (const u of listed) {
        const r = await get(edge, `/live/a/${u}`);
        expect(r.status, u).toBe(200);
        expect(r.body.equals(origin.body(`/live/a/${u}`)), u).toBe(true);
      }
      origin.produce(2);
      await until(async () => uris((await get(edge, '/live/a/index.m3u8')).body.toString()).includes('seg5.m4s'), 'seg5 visible');
      const held = await get(edge, '/live/a/seg5.m4s');
      expect(held.status).toBe(200);
      expect(held.headers['x-ethle-cache']).toBe('hit');
      expect(held.body.equals(origin.body('/live/a/seg5.m4s'))).toBe(true);
      expect(escaped).toEqual([]);
      expect(edgeErrors).toEqual([]);
    });
  }

  it.concurrent(
    'DASH timescale=90000 duration=360360 (4.004 s): the MPD and the segments it names are served; nothing escapes',
    async (ctx) => {
      const { expect } = ctx;
      const { origin, edge, escaped, edgeErrors } = await start(ctx, { kind: 'dash', timescale: 90_000, durationTicks: 360_360 });
      const mpd = await get(edge, '/live/a/manifest.mpd');
      expect(mpd.status).toBe(200);
      // The planner fetches the window's newest segments from the wall clock: wait for a few.
      const n = origin.newestNumber();
      await until(() => origin.requests(`/live/a/seg${n}.m4s`) >= 1, 'the newest segment prefetched');
      for (const k of [n - 3, n - 2]) {
        const r = await get(edge, `/live/a/seg${k}.m4s`);
        expect(r.status).toBe(200);
        expect(r.body.equals(origin.body(`/live/a/seg${k}.m4s`))).toBe(true);
      }
      expect(escaped).toEqual([]);
      expect(edgeErrors).toEqual([]);
    },
  );

  for (const mode of ['whole segments (hold 2)', 'parts (holdParts 2)'] as const) {
    it(`LL-HLS with 4.00008 s segments of 1.00002 s parts, held in ${mode}: playlists and segments served for 3 s; nothing escapes`, async (ctx) => {
      const { expect } = ctx;
      const { origin, edge, escaped, edgeErrors } = await start(
        ctx,
        { kind: 'll-hls', segmentSeconds: '4.00008', partSeconds: '1.00002', partsPerSegment: 4 },
        mode.startsWith('parts') ? { hold: 0, holdParts: 2 } : {},
      );
      origin.produce(6);
      const t0 = Date.now();
      let served = 0;
      // The edge died within 3 s of the first playlist request, 4 times of 4.
      while (Date.now() - t0 < 3000) {
        const p = await get(edge, '/live/a/index.m3u8');
        expect(p.status).toBe(200);
        const last = uris(p.body.toString()).at(-1)!;
        const r = await get(edge, `/live/a/${last}`);
        expect(r.status, last).toBe(200);
        expect(r.body.equals(origin.body(`/live/a/${last}`))).toBe(true);
        served += 1;
        if (served % 4 === 0) origin.produce(1);
        await new Promise((res) => setTimeout(res, 100));
      }
      expect(served).toBeGreaterThan(5);
      expect(escaped).toEqual([]);
      expect(edgeErrors).toEqual([]);
    });
  }
});
