/**
 * The full player conformance matrix (`npm run conformance`): every shape of the live origin × its
 * players (hls.js or dash.js, and Shaka) × every via, in real Chromium (runRow, judgeRow). A whole
 * run writes docs/conformance.md; a part (`-g 'Shaka · hls-fmp4'`) prints its cells and writes
 * test-results/conformance.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { expect, test } from '@playwright/test';
import type { CellResult } from './judgeRow.js';
import { LIMITATIONS } from './LIMITATIONS.js';
import { renderConformance, resultOf, type ConformanceRun } from './renderConformance.js';
import { GROUPS, runRow } from './runRow.js';
import { PLAYER_NAME, playersOf, SHAPES, viasOf } from './SHAPES.js';
import { startMatrix, type Matrix } from './startMatrix.js';

const SECONDS = Number(process.env.ETHLE_CONFORMANCE_SECONDS ?? 30);
const version = (name: string): string =>
  (JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string }).version;
const ALL_CELLS = SHAPES.reduce((n, s) => n + playersOf(s).length * viasOf(s).length, 0);

// Rows only measure (a failed cell is recorded, not thrown, so every row runs and the table is
// whole); the last test judges them all.
test.describe.configure({ mode: 'serial' });
let m: Matrix;
const cells: CellResult[] = [];
const load: number[] = [];
let loadTimer: ReturnType<typeof setInterval>;
test.beforeAll(async () => {
  m = await startMatrix();
  loadTimer = setInterval(() => load.push(loadavg()[0]!), 10_000); // the box's load, for the report
});
test.afterAll(async ({ browser }) => {
  clearInterval(loadTimer);
  await m?.close();
  if (cells.length === 0) return;
  const whole = cells.length === ALL_CELLS;
  const run: ConformanceRun = {
    seconds: SECONDS,
    groups: GROUPS,
    date: new Date().toISOString().slice(0, 10),
    command: whole ? 'npm run conformance' : `npm run conformance -- -g '${rowsGrep(cells)}'`,
    versions: `Chromium ${browser.version()}, hls.js ${version('hls.js')}, dash.js ${version('dashjs')}, Shaka Player ${version('shaka-player')}`,
    load: load.length === 0 ? '–' : `${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}`,
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
    cells,
  };
  // The measurements beside the page, so a run can be judged and rendered again (rejudge.ts).
  const dir = whole ? '../../docs/' : '../../test-results/';
  mkdirSync(new URL(dir, import.meta.url), { recursive: true });
  writeFileSync(new URL(`${dir}conformance.json`, import.meta.url), `${JSON.stringify(run)}\n`);
  writeFileSync(new URL(`${dir}conformance.md`, import.meta.url), renderConformance(cells, { ...run, limitations: LIMITATIONS }));
  console.log(`wrote ${new URL(`${dir}conformance.md`, import.meta.url).pathname}`);
});

for (const shape of SHAPES) {
  for (const player of playersOf(shape)) {
    test(`${PLAYER_NAME[player]} · ${shape.id}`, async ({ browser }) => {
      // Each group may use playFor's whole deadline (seconds · 2 + 60 s) plus its page's opening:
      // a row whose players never settle then records failed cells instead of timing out whole.
      test.setTimeout((GROUPS * (SECONDS * 2 + 60 + 20) + 60) * 1000);
      const row = await runRow({ browser, harness: m.harness, originUrl: m.origin.url, edges: m.edges }, shape, player, SECONDS);
      cells.push(...row);
      for (const c of row) {
        const line = describe(c);
        test.info().annotations.push({ type: c.via, description: line });
        console.log(`${PLAYER_NAME[player]} ${shape.id} ${c.via}: ${line}`);
      }
    });
  }
}

test('every cell passes or is a documented player limitation', () => {
  const failed = cells.filter((c) => resultOf(c, LIMITATIONS) === 'FAIL');
  expect(failed.map((c) => `${PLAYER_NAME[c.player]} ${c.shape} via ${c.via}: ${c.failures.join('; ')}`)).toEqual([]);
});

/**
 * The rows a part ran as a `-g` pattern that runs exactly them again (a worker does not see the
 * runner's command line; `$`: `ll-hls` must not match `ll-hls-master`).
 */
function rowsGrep(run: readonly CellResult[]): string {
  const rows = new Set(run.map((c) => `${PLAYER_NAME[c.player]} · ${c.shape}$`));
  return [...rows].join('|');
}

function describe(c: CellResult): string {
  const n = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(2));
  return `latency ${n(c.latency?.mean)} ± ${n(c.latency?.sd)} s, − ${c.deltaRef ?? '–'} ${n(c.delta?.mean)} ± ${n(c.delta?.sd)} s, declared ${c.declaredS.toFixed(2)}, manifest lag ${n(c.manifestLag?.mean)} s, stalls ${c.stalls}: ${c.failures.join('; ') || 'pass'}`;
}
