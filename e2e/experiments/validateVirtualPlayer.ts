/**
 * Virtual receivers vs Chromium (issue 16 item 2): the same live stream, on loopback, played at the
 * same moment by real Chromium + hls.js/dash.js with the QoE probe and by a virtual receiver
 * (packages/virtual-player); halfway through, the origin pauses delivery long enough to make both
 * stall. Prints startup, stalls (count, seconds) and true latency side by side and writes both runs
 * in the results format (the dashboard and summarize.ts read them).
 *
 *   npx tsx e2e/experiments/validateVirtualPlayer.ts --player hls,dash --stream 2M-2s --repeats 3 --seconds 40 --out results/vplayer
 *   npx tsx e2e/experiments/validateVirtualPlayer.ts --hold 2 …   (both through an ETHLE edge holding 2 segments)
 *
 * Not part of `npm test`: it takes minutes and measures, it does not assert.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { startOrigin } from '@ethle/live-origin';
import { createEdgeConfig, startEdge } from '../../packages/edge-node/src/index.js';
import type { RunResult } from '../../packages/player-demo/src/data/RunResult.js';
import { summarizeRun } from '../../packages/player-demo/src/data/summarize.js';
import { startVirtualPlayer } from '../../packages/virtual-player/src/index.js';
import { openPlayer } from '../fixtures/playerPage.js';

const { values: v } = parseArgs({
  options: {
    player: { type: 'string', default: 'hls,dash' },
    stream: { type: 'string', default: '2M-2s' },
    repeats: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '40' },
    // Seconds after the start; the start is just after a playlist update, so 17 puts the pause
    // mid-segment for 2 s segments (at 16 it raced the next segment's fetch: one receiver had it, one not).
    'pause-at': { type: 'string', default: '17' },
    'pause-extra': { type: 'string', default: '4' },
    // Play through an ETHLE edge holding this many segments (the pause stays at the origin).
    hold: { type: 'string' },
    out: { type: 'string' },
  },
});
const players = v.player.split(',') as ('hls' | 'dash')[];
const seconds = Number(v.seconds);
const pauseAtS = Number(v['pause-at']);
const pauseExtraS = Number(v['pause-extra']);
const repeats = Number(v.repeats);

const origin = await startOrigin({ port: 0, streams: [v.stream] });
const edge =
  v.hold === undefined
    ? undefined
    : await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: Number(v.hold), logLevel: 'silent' }));
const base = edge?.url ?? origin.url;
const scheme = v.hold === undefined ? 'e2e' : `hold-${v.hold}`;
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
const rows: string[] = [
  '| player | repeat | receiver | startup (s) | stalls | stall time (s) | latency after start (s) | latency before the stall (s) | latency at end (s) | pause (s) |',
  '|---|---|---|---|---|---|---|---|---|---|',
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function newestMsn(url: string): Promise<number> {
  const text = await (await fetch(url)).text();
  return Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? NaN) + (text.match(/^#EXTINF/gm)?.length ?? 0) - 1;
}

/** Resolves just after the origin's playlist lists a new segment (polled every 25 ms). */
async function nextSegmentListed(url: string): Promise<void> {
  const before = await newestMsn(url);
  while ((await newestMsn(url)) <= before) await sleep(25);
}
try {
  for (const player of players) {
    for (let repeat = 1; repeat <= repeats; repeat++) {
      const src = `${base}/live/${v.stream}/${player === 'hls' ? 'index.m3u8' : 'manifest.mpd'}`;
      const page = await browser.newPage();
      // hls.js counts its start offset from the playlist edge it saw: both receivers must see the
      // same newest segment, so they start just after one is listed (not astride a boundary).
      await nextSegmentListed(`${origin.url}/live/${v.stream}/index.m3u8`);
      const startedAt = new Date();
      // The virtual receiver starts when Chromium's player asks for the manifest (not when the
      // page starts loading): both see the same playlist/MPD at the same moment, and the same pause.
      const manifestRequested = page.waitForRequest((r) => r.url() === src, { timeout: 30_000 });
      await openPlayer(page, { base, src, player, probe: true });
      await manifestRequested;
      const virtual = await startVirtualPlayer({ url: src, player });
      await sleep(pauseAtS * 1000); // the scenario's timeline: the pause comes at a fixed point
      // Long enough to drain whichever buffer is longer (Chromium's, read from the element).
      const chromiumAhead = await page.evaluate(() => {
        const el = (window as any).video as HTMLVideoElement;
        for (let i = 0; i < el.buffered.length; i++)
          if (el.buffered.start(i) <= el.currentTime + 0.1 && el.currentTime < el.buffered.end(i))
            return el.buffered.end(i) - el.currentTime;
        return 0;
      });
      const pauseS = Math.max(chromiumAhead, virtual.bufferAhead()) + pauseExtraS;
      origin.pause(v.stream);
      await sleep(pauseS * 1000);
      origin.resume(v.stream);
      await sleep(Math.max(0, seconds - pauseAtS - pauseS) * 1000);
      const probeReport = await page.evaluate(() => (window as any).probe.report());
      await page.close();
      await virtual.close();
      const scenario = { stream: v.stream, player, scheme, hold: Number(v.hold ?? 0), repeat, durationS: seconds };
      const runs: Record<'chromium' | 'virtual', RunResult> = {
        chromium: {
          v: 1,
          id: `${v.stream}-loopback-${scheme}-${player}-r${repeat}-chromium`,
          startedAt: startedAt.toISOString(),
          scenario,
          report: probeReport,
        },
        virtual: {
          v: 1,
          id: `${v.stream}-loopback-${scheme}-${player}-r${repeat}-virtual`,
          startedAt: startedAt.toISOString(),
          scenario,
          report: virtual.report(),
        },
      };
      for (const [receiver, run] of Object.entries(runs) as ['chromium' | 'virtual', RunResult][]) {
        const m = summarizeRun(run);
        const f = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(2));
        // True latency at the second sample (the first may predate the probe's clock sync) and at
        // the last sample before the stall: how far the playhead slipped against the wall clock.
        const series = run.report.latencySeries.filter((x) => x.trueLatency !== null);
        const stallStart = run.report.stalls.list[0]?.start ?? Number.POSITIVE_INFINITY;
        const beforeStall = series.filter((x) => x.at < stallStart);
        rows.push(
          `| ${player} | ${repeat} | ${receiver} | ${f(m.startupS)} | ${m.stallCount} | ${f(m.stallS)} | ${f(beforeStall[1]?.trueLatency)} | ${f(beforeStall.at(-1)?.trueLatency)} | ${f(m.latencyS)} | ${pauseS.toFixed(1)} |`,
        );
        if (v.out) {
          mkdirSync(v.out, { recursive: true });
          writeFileSync(join(v.out, `${run.id}.json`), `${JSON.stringify(run)}\n`);
        }
      }
      console.log(rows.slice(-2).join('\n'));
    }
  }
} finally {
  await browser.close();
  await edge?.close();
  await origin.close();
}
console.log(`\n${rows.join('\n')}`);
