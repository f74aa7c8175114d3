/**
 * Judges a conformance run again from its measurements and renders it:
 *   npx tsx e2e/conformance/rejudge.ts [docs/conformance.json] [--out docs/conformance.md] [--commit SHA]
 * (the same judgeRow and renderConformance a run uses; for a change to either without playing
 * the matrix again).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { judgeRow } from './judgeRow.js';
import { LIMITATIONS } from './LIMITATIONS.js';
import { renderConformance, type ConformanceRun } from './renderConformance.js';
import { SEGMENT_SECONDS, SHAPES } from './SHAPES.js';

const args = process.argv.slice(2);
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const out = flag('--out');
const input = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'docs/conformance.json';
const run = JSON.parse(readFileSync(input, 'utf8')) as ConformanceRun;
// A run that did not record its commit (the first, 2026-11-27) is told it.
run.commit ??= flag('--commit');
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
