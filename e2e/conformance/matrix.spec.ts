/**
 * The full player conformance matrix (`npm run conformance`): hls.js × every HLS shape and dash.js
 * × every DASH shape of the live origin × {direct, edge hold 0, edge hold 2}, 30 s each, in real
 * Chromium. Writes docs/conformance.md. See runRow for what a cell checks.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { FORMATS, VIAS } from './FORMATS.js';
import { LIMITATIONS } from './LIMITATIONS.js';
import { renderConformance } from './renderConformance.js';
import { runRow, type CellResult } from './runRow.js';
import { startMatrix, type Matrix } from './startMatrix.js';

const SECONDS = Number(process.env.ETHLE_CONFORMANCE_SECONDS ?? 30);
// dash.js does not export its package.json: read the installed copies in the workspace.
const version = (name: string): string => (JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string }).version;

// Rows only measure (a failed cell is recorded, not thrown, so every row runs and the table is
// whole); the last test judges them all.
test.describe.configure({ mode: 'serial' });
let m: Matrix;
const cells: CellResult[] = [];
test.beforeAll(async () => {
  m = await startMatrix();
});
test.afterAll(async ({ browser }) => {
  await m?.close();
  if (cells.length === 0) return;
  const doc = renderConformance(cells, {
    seconds: SECONDS,
    date: new Date().toISOString().slice(0, 10),
    command: 'npm run conformance',
    versions: `Chromium ${browser.version()}, hls.js ${version('hls.js')}, dash.js ${version('dashjs')}`,
    limitations: LIMITATIONS,
  });
  writeFileSync(new URL('../../docs/conformance.md', import.meta.url), doc);
});

for (const f of FORMATS) {
  test(`${f.player === 'hls' ? 'hls.js' : 'dash.js'} ${f.id}: direct, edge hold 0, edge hold 2`, async ({ browser }) => {
    const row = await runRow({ browser, harness: m.harness, originUrl: m.origin.url, edges: m.edges }, f, VIAS, SECONDS);
    cells.push(...row);
    for (const c of row) {
      test.info().annotations.push({ type: c.via, description: describe(c) });
      console.log(`${f.id} ${c.via}: ${describe(c)}`);
    }
  });
}

test('every cell passes or is a documented player limitation', () => {
  expect(cells).toHaveLength(FORMATS.length * VIAS.length);
  const failed = cells.filter((c) => c.failures.length > 0 && LIMITATIONS[`${c.format}/${c.via}`] === undefined);
  expect(failed.map((c) => `${c.format} via ${c.via}: ${c.failures.join('; ')}`)).toEqual([]);
});

function describe(c: CellResult): string {
  const n = (x: number | null) => (x === null ? '–' : x.toFixed(2));
  return `latency ${n(c.latencyS)} s (edge distance ${n(c.edgeDistanceS)}, manifest lag ${n(c.manifestLagS)}, startup ${n(c.startupS)}), − direct ${n(c.deltaS)} s, judged ${n(c.judgedS)} s, declared ${c.declaredS}, stalls ${c.stalls}: ${c.failures.join('; ') || 'pass'}`;
}
