/**
 * Low-latency live through the edge on loopback (issue 20): hls.js (lowLatencyMode) and dash.js
 * (low latency, live catch-up) in Chromium with the QoE probe play the origin's LL renditions
 * directly and through an edge at `--hold-parts 0,1,2,3`, one run after the other. Per run:
 * startup, stalls, and the median true latency over the last `--measure` seconds.
 *
 *   npx tsx e2e/experiments/llLoopback.ts --player hls,dash --stream 15M-2s --parts 0,1,2,3 --repeats 2 --seconds 30 --measure 20
 *   (--no-catchup: hls.js without maxLiveSyncPlaybackRate, its default)
 */
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { startOrigin } from '@ethle/live-origin';
import { createEdgeConfig, startEdge, type RunningEdge } from '../../packages/edge-node/src/index.js';
import { openProbePage, report, startHarness } from '../fixtures/probeHarness.js';

const { values: v } = parseArgs({
  options: {
    player: { type: 'string', default: 'hls,dash' },
    stream: { type: 'string', default: '15M-2s' },
    parts: { type: 'string', default: '0,1,2,3' },
    repeats: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '30' },
    measure: { type: 'string', default: '20' },
    'no-catchup': { type: 'boolean', default: false },
  },
});
const players = v.player.split(',') as Array<'hls' | 'dash'>;
const parts = v.parts.split(',').map(Number);
const repeats = Number(v.repeats);
const seconds = Number(v.seconds);
const measure = Number(v.measure);

const origin = await startOrigin({ port: 0, streams: [v.stream] });
const edges = new Map<number, RunningEdge>();
for (const n of parts)
  edges.set(n, await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, holdParts: n, logLevel: 'silent' })));
const harness = await startHarness();
const browser = await chromium.launch({
  executablePath: process.env.ETHLE_CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--autoplay-policy=no-user-gesture-required',
  ],
});
interface Row {
  player: string;
  scheme: string;
  startupS: number | null;
  stalls: number;
  stallS: number;
  latencyS: number | null;
  hiddenS: number | null;
  holdS: number;
}
const rows: Row[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
try {
  for (let repeat = 1; repeat <= repeats; repeat++) {
    for (const player of players) {
      for (const scheme of ['e2e', ...parts.map((n) => `parts-${n}`)]) {
        const base = scheme === 'e2e' ? origin.url : edges.get(Number(scheme.slice(6)))!.url;
        const src = `${base}/live/${v.stream}/${player === 'hls' ? 'll/index.m3u8' : 'll.mpd'}`;
        // Live catch-up in both (hls.js up to 1.5× towards its target latency, dash.js its default): without
        // it hls.js keeps the latency its start gave it, which depends on where the independent parts fall.
        const config =
          player === 'hls'
            ? { lowLatencyMode: true, ...(v['no-catchup'] ? {} : { maxLiveSyncPlaybackRate: 1.5 }) }
            : { streaming: { liveCatchup: { enabled: true } } };
        const page = await browser.newPage();
        try {
          await openProbePage(page, harness, player, src, false, config);
          const t0 = Date.now();
          await sleep(seconds * 1000);
          const r = await report(page);
          const window = r.latencySeries.filter((s: any) => s.trueLatency !== null && s.at >= t0 + (seconds - measure) * 1000);
          const med = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : null);
          // What the manifest hides from the player: true latency − its distance to the live edge it sees
          // (the probe's edgeDistance), wherever the player chose to sit.
          const hidden = window
            .filter((s: any) => s.edgeDistance !== null)
            .map((s: any) => (s.trueLatency as number) - (s.edgeDistance as number));
          const row: Row = {
            player,
            scheme,
            startupS: r.startupMs === null ? null : r.startupMs / 1000,
            stalls: r.stalls.count,
            stallS: r.stalls.totalMs / 1000,
            latencyS: med(window.map((s: any) => s.trueLatency as number)),
            hiddenS: med(hidden),
            holdS: r.holdSeconds,
          };
          rows.push(row);
          console.log(
            `${player} ${scheme} r${repeat}: startup ${row.startupS?.toFixed(2)} s, stalls ${row.stalls} (${row.stallS.toFixed(1)} s), latency ${row.latencyS?.toFixed(2)} s, hidden ${row.hiddenS?.toFixed(2)} s, declared hold ${row.holdS} s`,
          );
        } finally {
          await page.close();
        }
      }
    }
  }
} finally {
  await browser.close();
  await harness.close();
  for (const e of edges.values()) await e.close();
  await origin.close();
}

const stat = (xs: Array<number | null>, d = 2) => {
  const ys = xs.filter((x): x is number => x !== null);
  if (ys.length === 0) return '–';
  const m = ys.reduce((a, b) => a + b, 0) / ys.length;
  return ys.length === 1 ? m.toFixed(d) : `${m.toFixed(d)} (${Math.min(...ys).toFixed(d)}–${Math.max(...ys).toFixed(d)})`;
};
console.log(
  `\n| player | scheme | runs | startup (s) | stalls | stall time (s) | declared hold (s) | true latency (s) | latency − e2e (s) | hidden from the player (s) |\n|---|---|---|---|---|---|---|---|---|---|`,
);
for (const player of players) {
  const e2e = rows
    .filter((r) => r.player === player && r.scheme === 'e2e')
    .map((r) => r.latencyS)
    .filter((x): x is number => x !== null);
  const base = e2e.length ? e2e.reduce((a, b) => a + b, 0) / e2e.length : NaN;
  for (const scheme of ['e2e', ...parts.map((n) => `parts-${n}`)]) {
    const g = rows.filter((r) => r.player === player && r.scheme === scheme);
    const lat = g.map((r) => r.latencyS).filter((x): x is number => x !== null);
    const mean = lat.length ? lat.reduce((a, b) => a + b, 0) / lat.length : NaN;
    console.log(
      `| ${player} | ${scheme} | ${g.length} | ${stat(g.map((r) => r.startupS))} | ${g.reduce((a, r) => a + r.stalls, 0)} | ${stat(
        g.map((r) => r.stallS),
        1,
      )} | ${stat(g.map((r) => r.holdS))} | ${stat(g.map((r) => r.latencyS))} | ${scheme === 'e2e' ? '–' : (mean - base).toFixed(2)} | ${stat(g.map((r) => r.hiddenS))} |`,
    );
  }
}
