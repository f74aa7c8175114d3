/**
 * Judges a conformance run again from its measurements and renders it:
 *   npx tsx e2e/conformance/rejudge.ts [docs/conformance.json] [--out docs/conformance.md]
 * (the same judgeRow and renderConformance a run uses; for a change to either without playing
 * the matrix again).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { judgeRow } from './judgeRow.js';
import { LIMITATIONS } from './LIMITATIONS.js';
import { renderConformance, type ConformanceRun } from './renderConformance.js';
import { SEGMENT_SECONDS, SHAPES } from './SHAPES.js';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args[outAt + 1] : undefined;
const input = args.find((a, i) => !a.startsWith('--') && (outAt < 0 || i !== outAt + 1)) ?? 'docs/conformance.json';
const run = JSON.parse(readFileSync(input, 'utf8')) as ConformanceRun;
const rows = new Map<string, ConformanceRun['cells']>();
for (const c of run.cells) rows.set(`${c.player}/${c.shape}`, [...(rows.get(`${c.player}/${c.shape}`) ?? []), c]);
const cells = [...rows.values()].flatMap((row) => {
  const shape = SHAPES.find((s) => s.id === row[0]!.shape)!;
  const lags = Object.fromEntries(row.map((c) => [c.via, { lags: c.lagSamples }]));
  return judgeRow(row[0]!.player, shape, row.map((c) => c.via), row.flatMap((c) => c.sessions), lags, run.seconds, SEGMENT_SECONDS);
});
const doc = renderConformance(cells, { ...run, limitations: LIMITATIONS });
if (out) writeFileSync(out, doc);
else process.stdout.write(doc);
