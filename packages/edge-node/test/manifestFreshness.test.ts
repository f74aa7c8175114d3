import { request } from 'undici';
import { describe, it } from 'vitest';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { capturedLogger } from './helpers/capturedLogger.js';
import { startTestOrigin, until } from './helpers/startTestOrigin.js';

// Issue 36, minor: a hanging origin playlist was served ~11 s without the stale marker (the poll
// failed only at its 10 s deadline), and a playlist that went backwards was passed on.
// The two run side by side (each has its own origin and edge, and waits on the edge's polls):
// expect and onTestFinished come from each test's context.
const playlist = async (edge: RunningEdge, path = '/live/a/index.m3u8') => {
  const r = await request(`${edge.url}${path}`);
  const text = await r.body.text();
  return {
    status: r.statusCode,
    stale: r.headers['x-ethle-manifest-stale'] as string | undefined,
    seq: Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1]),
  };
};

describe.concurrent('manifest freshness', () => {
  it('an origin playlist that hangs: the version is marked stale within two segment durations, not at the 10 s fetch deadline', async ({
    expect,
    onTestFinished,
  }) => {
    const origin = await startTestOrigin({ targetDuration: 1 });
    onTestFinished(() => origin.close());
    origin.produce(6);
    const edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, originProbeMs: 0, logLevel: 'silent' }));
    onTestFinished(() => edge.close());
    expect((await playlist(edge)).stale).toBeUndefined();
    origin.fault('/live/a/index.m3u8', { kind: 'hang' });
    const hungAt = Date.now();
    // Still served (the last good version), and now said to be stale.
    const marked = await until(
      async () => {
        const p = await playlist(edge);
        expect(p.status).toBe(200);
        return p.stale === undefined ? undefined : p;
      },
      'stale marker',
      9_000,
    );
    // The next poll starts within a segment (1 s); it is late after 2 s.
    expect(Date.now() - hungAt).toBeLessThan(1000 + 2000 + 1500);
    expect(Number(marked.stale)).toBeGreaterThan(1);
  });

  it('a playlist that goes backwards is not passed on until the origin has answered so for half of manifestStaleMs (a restart), and is served stale meanwhile', async ({
    expect,
    onTestFinished,
  }) => {
    const log = capturedLogger('warn');
    const origin = await startTestOrigin({ window: 3, targetDuration: 1 });
    onTestFinished(() => origin.close());
    origin.produce(10);
    const edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, originProbeMs: 0, manifestStaleMs: 6000 }), {
      logger: log.logger,
    });
    onTestFinished(() => edge.close());
    expect((await playlist(edge)).seq).toBe(7);
    origin.produce(-5);
    const rewoundAt = Date.now();
    // Until 3 s of backwards answers: the last version (7), marked stale once a poll saw it.
    let sawStale = false;
    for (;;) {
      const p = await playlist(edge);
      expect(p.status).toBe(200);
      if (p.seq !== 7) {
        expect(p.seq).toBe(2);
        expect(Date.now() - rewoundAt).toBeGreaterThanOrEqual(3000);
        break;
      }
      if (p.stale !== undefined) sawStale = true;
      expect(Date.now() - rewoundAt).toBeLessThan(3000 + 4000);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(sawStale).toBe(true);
    expect(log.lines.some((l) => String(l.msg).includes('taken as a restart'))).toBe(true);
  });
});
