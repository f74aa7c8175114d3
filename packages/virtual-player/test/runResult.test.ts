/**
 * playVirtual writes a run in the results format: the dashboard's summarizeRun reads startup,
 * stalls, latency and throughput from it as from a Chromium run.
 */
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { summarizeRun } from '../../player-demo/src/data/summarize.js';
import type { RunResult } from '../../player-demo/src/data/RunResult.js';
import { playVirtual } from '../src/index.js';

let origin: LiveOrigin;
beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: ['2M-2s'] });
});
afterAll(async () => {
  await origin?.close();
});

it('a virtual run is a RunResult the dashboard summarises', async () => {
  const run: RunResult = await playVirtual({
    url: `${origin.url}/live/2M-2s/manifest.mpd`,
    player: 'dash',
    seconds: 4,
    scenario: { scheme: 'e2e' },
  });
  expect(run).toMatchObject({ v: 1, scenario: { stream: '2M-2s', player: 'dash', scheme: 'e2e', durationS: 4 } });
  expect(run.id).toMatch(/^2M-2s-e2e-dash-virtual-/);
  const m = summarizeRun(run);
  expect(m.startupS).toBeGreaterThan(0);
  expect(m.stallCount).toBe(0);
  expect(m.latencyS).toBeGreaterThan(0);
  expect(m.throughputMbps).toBeGreaterThan(0);
  // It round-trips through JSON (what the experiments write to disk).
  expect(JSON.parse(JSON.stringify(run))).toEqual(run);
}, 20_000);
