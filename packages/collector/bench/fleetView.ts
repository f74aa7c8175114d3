// Fleet view bench: SESSIONS stored sessions (each MINUTES of playback, a batch every 5 s, started
// over the last hour) in a DuckDB file, the collector over it, and the demo's dashboard in Debian
// Chromium: how long the fleet view takes from the page's request to the drawn charts, tables and
// session list (the page's own figure, window.fleet.renderMs: the two queries plus drawing), and
// each query API call timed alone.
//
//   npx tsx packages/collector/bench/fleetView.ts [--sessions 10000] [--minutes 3] [--repeats 5]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { parseBatch } from '../src/beacon/parseBatch.js';
import { DEFAULT_LIMITS } from '../src/config/CollectorConfig.js';
import { createCollectorConfig } from '../src/config/createCollectorConfig.js';
import { startCollector } from '../src/http/startCollector.js';
import { openDuckDbStore } from '../src/store/duckdb/openDuckDbStore.js';
import type { ValidBatch } from '../src/beacon/ValidBatch.js';
import { startDemoServer } from '../../player-demo/server/startDemoServer.mjs';

const { values } = parseArgs({ options: { sessions: { type: 'string', default: '10000' }, minutes: { type: 'string', default: '3' }, repeats: { type: 'string', default: '5' } } });
const SESSIONS = Number(values.sessions);
const BATCHES = Math.round((Number(values.minutes) * 60) / 5);
const REPEATS = Number(values.repeats);
const dir = mkdtempSync(join(tmpdir(), 'ethle-fleetview-'));
const db = join(dir, 'fleet.duckdb');
const now = Date.now();
const SCHEMES = ['e2e', 'hold-0', 'hold-2', 'auto'];

// Generate: session i starts at a random point of the last hour (minus its length).
const t0 = performance.now();
const store = await openDuckDbStore(db);
let group: ValidBatch[] = [];
let rows = 0;
for (let i = 0; i < SESSIONS; i++) {
  const id = `s-${i}`;
  const start = now - 3_600_000 + Math.random() * (3_600_000 - BATCHES * 5000);
  const scheme = SCHEMES[i % SCHEMES.length]!;
  const meta = { stream: i % 3 ? '15M-2s' : '50M-2s', scheme, edge: scheme === 'e2e' ? 'direct' : `mec-${i % 5}`, player: i % 2 ? 'hls.js' : 'dash.js' };
  const stalls = Math.random() < 0.3 ? 1 + Math.floor(Math.random() * 3) : 0;
  for (let seq = 0; seq < BATCHES; seq++) {
    const sent = start + (seq + 1) * 5000;
    const events: { type: string; data: Record<string, unknown> }[] = [];
    if (seq === 0) events.push({ type: 'startup', data: { startupMs: 800 + Math.random() * 2500, at: start + 2000 } });
    for (let k = 0; k < 5; k++) events.push({ type: 'latency', data: { at: sent - 5000 + k * 1000, trueLatency: (scheme === 'e2e' ? 7 : 10) + Math.random() * 2, edgeDistance: 6, holdSeconds: scheme === 'e2e' ? 0 : 4 } });
    for (let k = 0; k < 2; k++) {
      const t = sent - 4000 + k * 2000;
      events.push({ type: 'segment', data: { kind: 'media', url: `http://e/live/${meta.stream}/v/${seq * 2 + k}.m4s`, track: 'main', requestStart: t, firstByte: t + 30, lastByte: t + 400, bytes: 3_700_000, throughputBps: 74e6, transferBps: 80e6, duration: 2, rendition: '3' } });
    }
    if (stalls > 0 && seq % Math.max(1, Math.floor(BATCHES / stalls)) === 1) events.push({ type: 'stallEnd', data: { start: sent - 3000, end: sent - 1500, durationMs: 1500, signals: ['waiting'] } });
    group.push(parseBatch(JSON.stringify({ v: 1, session: id, seq, target: i % 2 ? 'hls' : 'dash', sentAt: sent, meta, events }), sent + 40, DEFAULT_LIMITS));
    rows += events.length;
    if (group.length >= 500) {
      await store.writeBatches(group);
      group = [];
    }
  }
}
if (group.length) await store.writeBatches(group);
await store.close();
const generatedS = (performance.now() - t0) / 1000;

const collector = await startCollector(createCollectorConfig({ port: 0, store: { duckdb: db } }), { log: () => undefined });
const demo = await startDemoServer({ port: 0, config: { originUrl: 'http://127.0.0.1:9', edgeUrl: 'http://127.0.0.1:9', collectorUrl: collector.url, stream: '15M-2s', player: 'hls', scheme: 'hold-2' } });

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
const api = [await timed('/v1/fleet?from=-60m&by=scheme&bucket=minute'), await timed('/v1/fleet?from=-60m&by=edge&bucket=minute'), await timed('/v1/sessions?from=-60m&limit=50'), await timed('/v1/dimensions')];

// The dashboard in Chromium: page request → fleet view drawn.
const browser = await chromium.launch({ executablePath: process.env['ETHLE_CHROMIUM'] ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
const pageMs: number[] = [];
const renderMs: number[] = [];
let shown = 0;
for (let r = 0; r < REPEATS; r++) {
  const t = performance.now();
  await page.goto(`${demo.url}/dashboard.html`);
  await page.waitForFunction(() => (window as { fleet?: { updates: number } }).fleet?.updates === 1, undefined, { timeout: 60_000 });
  pageMs.push(performance.now() - t);
  const s = await page.evaluate(() => (window as unknown as { fleet: { renderMs: number; view: { groups: { sessions: number }[] } } }).fleet);
  renderMs.push(s.renderMs);
  shown = s.view.groups.reduce((a, g) => a + g.sessions, 0);
}
await browser.close();
await demo.close();
await collector.close();
rmSync(dir, { recursive: true, force: true });
const med = (xs: number[]) => Number([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(0));
console.log(JSON.stringify({
  sessions: SESSIONS, batchesPerSession: BATCHES, batches: SESSIONS * BATCHES, events: rows, generatedS: Number(generatedS.toFixed(1)),
  sessionsInView: shown,
  fleetViewMs: { median: med(renderMs), max: Number(Math.max(...renderMs).toFixed(0)) },
  pageLoadToFleetDrawnMs: { median: med(pageMs), max: Number(Math.max(...pageMs).toFixed(0)) },
  api,
  loadavg: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
}, null, 2));
