// Fleet view bench: SESSIONS stored sessions (each MINUTES of playback, a batch every 5 s, started
// over the last hour) in a DuckDB file, the collector over it, and the demo's dashboard in Debian
// Chromium showing all of them (?range=0): how long the fleet view takes from the page's request
// to the drawn charts, tables and session list (the page's own figure, window.fleet.renderMs: the
// two queries plus drawing), and each query API call timed alone.
//
//   npx tsx packages/collector/bench/fleetView.ts [--sessions 10000] [--minutes 3] [--repeats 5]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { createCollectorConfig } from '../src/config/createCollectorConfig.js';
import { startCollector } from '../src/http/startCollector.js';
import { openDuckDbStore } from '../src/store/duckdb/openDuckDbStore.js';
import { SESSION_TOTALS_BACKFILL } from '../src/store/sessionTotals.js';
import { startDemoServer } from '../../player-demo/server/startDemoServer.mjs';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '10000' },
    minutes: { type: 'string', default: '3' },
    repeats: { type: 'string', default: '5' },
  },
});
const SESSIONS = Number(values.sessions);
const BATCHES = Math.round((Number(values.minutes) * 60) / 5);
const REPEATS = Number(values.repeats);
const dir = mkdtempSync(join(tmpdir(), 'ethle-fleetview-'));
const db = join(dir, 'fleet.duckdb');
const now = Date.now();

// Generate with SQL (the ingest path is bench/ingest.ts's): the tables as batches would fill them —
// per session a startup, a batch every 5 s with 5 latency samples and 2 segments, stalls in 30 %
// of sessions; schemes, edges, players and streams spread over the sessions.
const t0 = performance.now();
const store = await openDuckDbStore(db);
const sql = (q: string) => store.all(q);
const start = (i: string) => `(${now} - 3600000 + (hash(${i}) % 3000) * 1000)`;
await sql(`INSERT INTO sessions (session_id, first_received_ms, target, player, stream, scheme, edge, meta) SELECT 's-' || i, ${start('i')}, CASE WHEN i % 2 = 0 THEN 'hls' ELSE 'dash' END, CASE WHEN i % 2 = 0 THEN 'hls.js' ELSE 'dash.js' END,
  CASE WHEN i % 3 = 0 THEN '50M-2s' ELSE '15M-2s' END, (['e2e', 'hold-0', 'hold-2', 'auto'])[i % 4 + 1], CASE WHEN i % 4 = 0 THEN 'direct' ELSE 'mec-' || (i % 5) END, '{}' FROM range(${SESSIONS}) t(i)`);
await sql(`INSERT INTO batches SELECT 's-' || i, j, ${start('i')} + (j + 1) * 5000 + 40, ${start('i')} + (j + 1) * 5000, ${start('i')} + j * 5000, 8,
  CASE WHEN j = 0 THEN 800 + random() * 2500 ELSE NULL END, CASE WHEN hash(i) % 10 < 3 AND j % 12 = 5 THEN 1 ELSE 0 END, CASE WHEN hash(i) % 10 < 3 AND j % 12 = 5 THEN 1500 ELSE 0 END, 2, 7400000, j = ${BATCHES - 1}, 5000
  FROM range(${SESSIONS}) a(i), range(${BATCHES}) b(j)`);
await sql(`INSERT INTO latency SELECT 's-' || i, j, ${start('i')} + (j + 1) * 5000 + 40, ${start('i')} + j * 5000 + k * 1000, CASE WHEN i % 4 = 0 THEN 7 ELSE 11 END + random() * 2, 6, CASE WHEN i % 4 = 0 THEN 0 ELSE 4 END
  FROM range(${SESSIONS}) a(i), range(${BATCHES}) b(j), range(5) c(k)`);
await sql(`INSERT INTO segments SELECT 's-' || i, j, 'media', 'http://e/live/15M-2s/v/' || (j * 2 + k) || '.m4s', 'main', ${start('i')} + j * 5000 + k * 2000, ${start('i')} + j * 5000 + k * 2000 + 30, ${start('i')} + j * 5000 + k * 2000 + 400, 3700000, 74e6, 80e6, 2, '3', NULL
  FROM range(${SESSIONS}) a(i), range(${BATCHES}) b(j), range(2) c(k)`);
await sql(
  `INSERT INTO stalls SELECT session_id, seq, received_ms, sent_ms - 3000, sent_ms - 1500, 1500, NULL FROM batches WHERE stall_count > 0`,
);
await sql(`INSERT INTO events SELECT session_id, seq, 0, 'latency', at_ms, '{}' FROM latency`);
// Each session's totals, as ingest keeps them (sessionTotals.ts; the migration's backfill).
await sql(SESSION_TOTALS_BACKFILL);
const rows = Number((await sql('SELECT count(*) AS n FROM events'))[0]!['n']);
await store.close();
const generatedS = (performance.now() - t0) / 1000;

const collector = await startCollector(createCollectorConfig({ port: 0, store: { duckdb: db } }), { log: () => undefined });
const demo = await startDemoServer({
  port: 0,
  config: {
    originUrl: 'http://127.0.0.1:9',
    edgeUrl: 'http://127.0.0.1:9',
    collectorUrl: collector.url,
    stream: '15M-2s',
    player: 'hls',
    scheme: 'hold-2',
  },
});

// The query API alone, each call timed (median of REPEATS).
const timed = async (path: string) => {
  const ms: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const t = performance.now();
    const res = await fetch(`${collector.url}${path}`);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { path, medianMs: Number(ms[Math.floor(ms.length / 2)]!.toFixed(1)), maxMs: Number(ms.at(-1)!.toFixed(1)) };
};
const api = [
  await timed('/v1/fleet?by=scheme&bucket=day'),
  await timed('/v1/fleet?by=edge&bucket=day'),
  await timed('/v1/sessions?limit=50'),
  await timed('/v1/dimensions'),
];

// The dashboard in Chromium: page request → fleet view drawn.
const browser = await chromium.launch({
  executablePath: process.env['ETHLE_CHROMIUM'] ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
const pageMs: number[] = [];
const renderMs: number[] = [];
let shown = 0;
for (let r = 0; r < REPEATS; r++) {
  const t = performance.now();
  await page.goto(`${demo.url}/dashboard.html?range=0`);
  await page.waitForFunction(() => (window as { fleet?: { updates: number } }).fleet?.updates === 1, undefined, { timeout: 60_000 });
  pageMs.push(performance.now() - t);
  const s = await page.evaluate(
    () => (window as unknown as { fleet: { renderMs: number; view: { groups: { sessions: number }[] } } }).fleet,
  );
  renderMs.push(s.renderMs);
  shown = s.view.groups.reduce((a, g) => a + g.sessions, 0);
}
await browser.close();
await demo.close();
await collector.close();
rmSync(dir, { recursive: true, force: true });
const med = (xs: number[]) => Number([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(0));
console.log(
  JSON.stringify(
    {
      sessions: SESSIONS,
      batchesPerSession: BATCHES,
      batches: SESSIONS * BATCHES,
      events: rows,
      generatedS: Number(generatedS.toFixed(1)),
      sessionsInView: shown,
      fleetViewMs: { median: med(renderMs), max: Number(Math.max(...renderMs).toFixed(0)) },
      pageLoadToFleetDrawnMs: { median: med(pageMs), max: Number(Math.max(...pageMs).toFixed(0)) },
      api,
      loadavg: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    },
    null,
    2,
  ),
);
