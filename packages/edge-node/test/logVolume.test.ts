import { afterEach, describe, expect, it } from 'vitest';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { SummedWarnings } from '../src/log/SummedWarnings.js';
import { capturedLogger } from './helpers/capturedLogger.js';
import { metricValue, startTestOrigin, type TestOrigin } from './helpers/startTestOrigin.js';

// Issue 36, minor: 20,000 junk manifest requests wrote 40,000 log lines (46 MB) — a 'stream
// active' line and an 'origin fetch failed' warning each. The log is bounded by kinds of event,
// not by requests; the metrics count every one.
let origin: TestOrigin | undefined;
let edge: RunningEdge | undefined;
afterEach(async () => {
  await edge?.close();
  await origin?.close();
  edge = origin = undefined;
});

describe('log volume under junk requests', () => {
  it('200 made-up manifest paths (404 and garbage at the origin) write a handful of lines; a real stream still says it is active', async () => {
    const log = capturedLogger('info');
    origin = await startTestOrigin();
    origin.produce(3);
    origin.faultPrefix('/junk/', { kind: 'status', status: 404 });
    origin.faultPrefix('/trash/', { kind: 'garbage', body: 'not a playlist' });
    edge = await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, originProbeMs: 0, logLevel: 'info' }), {
      logger: log.logger,
    });
    for (let i = 0; i < 100; i++) {
      await (await fetch(`${edge.url}/junk/${i}/index.m3u8`)).text();
      await (await fetch(`${edge.url}/trash/${i}/index.m3u8`)).text();
    }
    const m = await (await fetch(`${edge.url}/metrics`)).text();
    expect(metricValue(m, 'ethle_manifest_errors_total', { origin: 'origin', reason: 'ERR_EDGE_ORIGIN_STATUS' })).toBe(100);
    expect(metricValue(m, 'ethle_manifest_errors_total', { origin: 'origin', reason: 'ERR_EDGE_MANIFEST_UNPARSABLE' })).toBe(100);
    const afterJunk = log.lines.length;
    // 'edge listening' and one summed warning of the failed fetches (404) at most per kind.
    expect(afterJunk).toBeLessThanOrEqual(4);
    expect(log.lines.filter((l) => l.msg === 'stream active')).toEqual([]);
    expect((await fetch(`${edge.url}/live/a/index.m3u8`)).status).toBe(200);
    expect(log.lines.filter((l) => l.msg === 'stream active').map((l) => l.stream)).toEqual(['origin/live/a/index.m3u8']);
  });
});

describe('SummedWarnings', () => {
  it('logs the first of a kind, counts the rest for a window, then logs with how many it did not', () => {
    const log = capturedLogger('info');
    let t = 0;
    const w = new SummedWarnings(log.logger, 10_000, () => t);
    for (let i = 0; i < 100; i++) w.warn('a', { i }, 'A');
    w.warn('b', { i: 0 }, 'B');
    t = 10_000;
    w.warn('a', { i: 100 }, 'A');
    w.warn('a', { i: 101 }, 'A');
    t = 25_000;
    w.warn('a', { i: 102 }, 'A');
    expect(log.lines.map((l) => [l.msg, l.i, l.suppressed])).toEqual([
      ['A', 0, undefined],
      ['B', 0, undefined],
      ['A', 100, 99],
      ['A', 102, 1],
    ]);
  });
});
