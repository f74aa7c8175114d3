/**
 * Judges a conformance run again from its measurements and renders it:
 *   npx tsx e2e/conformance/rejudge.ts [run.json …] [--out docs/conformance.md] [--commit SHA]
 * (the same judgeRow and renderConformance a run uses; for a change to either without playing
 * the matrix again). Several runs (parts of the matrix, each `-g` run's test-results/conformance.json)
 * are merged into one page: they must agree on seconds, groups and versions; a row in two parts
 * is refused rather than one of them picked, unless `--replace` says that a later input's rows
 * replace an earlier's (a row run again, merged into a page's own json: docs/conformance.json).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { judgeRow } from './judgeRow.js';
import { LIMITATIONS } from './LIMITATIONS.js';
import { renderConformance, type ConformanceRun } from './renderConformance.js';
import { SEGMENT_SECONDS, SHAPES } from './SHAPES.js';

const args = process.argv.slice(2);
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const out = flag('--out');
const replace = args.includes('--replace');
const inputs = args.filter((a, i) => !a.startsWith('--') && (!args[i - 1]?.startsWith('--') || args[i - 1] === '--replace'));
const runs = (inputs.length === 0 ? ['docs/conformance.json'] : inputs).map((f) => JSON.parse(readFileSync(f, 'utf8')) as ConformanceRun);
const first = runs[0]!;
for (const r of runs) {
  for (const k of ['seconds', 'groups', 'versions'] as const) {
    if (r[k] !== first[k]) throw new Error(`ERR_REJUDGE_MIXED: the runs differ in ${k} (${String(first[k])} / ${String(r[k])})`);
  }
}
const rows = new Map<string, ConformanceRun['cells']>();
for (const [i, r] of runs.entries()) {
  const mine = new Set<string>();
  for (const c of r.cells) {
    const key = `${c.player}/${c.shape}`;
    if (!mine.has(key) && rows.has(key)) {
      if (!replace) throw new Error(`ERR_REJUDGE_DUPLICATE_ROW: ${key} is in more than one run (${inputs[i] ?? ''})`);
      rows.delete(key);
    }
    mine.add(key);
    rows.set(key, [...(rows.get(key) ?? []), c]);
  }
}
const cells = [...rows.values()].flatMap((row) => {
  const shape = SHAPES.find((s) => s.id === row[0]!.shape)!;
  const lags = Object.fromEntries(row.map((c) => [c.via, { lags: c.lagSamples }]));
  return judgeRow(
    row[0]!.player,
    shape,
    row.map((c) => c.via),
    row.flatMap((c) => c.sessions),
    lags,
    first.seconds,
    SEGMENT_SECONDS,
  );
});
const loads = runs.flatMap((r) => r.load.split('–').map(Number)).filter(Number.isFinite);
const commits = [...new Set(runs.map((r) => r.commit).filter((c) => c !== undefined))];
const merged: ConformanceRun = {
  ...first,
  date: runs
    .map((r) => r.date)
    .sort()
    .at(-1)!,
  command: runs.length === 1 ? first.command : 'npm run conformance',
  // A merged input brings its own parts.
  ...(runs.length > 1 ? { parts: [...new Set(runs.flatMap((r) => r.parts ?? [r.command]))] } : {}),
  load: loads.length === 0 ? '–' : `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
  // A run that did not record its commit is told it (--commit).
  commit: commits.length > 0 ? commits.join(', ') : flag('--commit'),
  cells,
};
const doc = renderConformance(cells, { ...merged, limitations: LIMITATIONS });
if (out) {
  writeFileSync(out, doc);
  // The merged measurements beside the page (a single run's are already there).
  if (runs.length > 1 && out.endsWith('.md')) writeFileSync(`${out.slice(0, -3)}.json`, `${JSON.stringify(merged)}\n`);
} else process.stdout.write(doc);
