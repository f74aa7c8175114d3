/**
 * `npm run experiment:merge -- DIR|runs.csv … --out docs/experiments/paper-matrix/ [--matrix paper|cubic] [--late-bar MS]`: joins the run
 * files of several result directories (shards run on different machines) and the rows of earlier
 * runs.csv files (shards merged and committed by earlier sessions) into the summary format that
 * every results directory has (summarize.ts writeSummary): summary.csv (per cell × scheme: valid
 * runs, invalid runs, mean±95 % half-width over the valid ones), runs.csv (every run, with the
 * bars it failed), counts.csv, latenessEffect.md when lateness was injected — and tableII.md
 * (summary.csv as markdown), autoGoal.md (issue 19's goal per
 * cell, autoGoal.ts), autoGoal-VARIANT.md for each variant of auto that was run (auto-warm, …)
 * and progress.md (how much of the matrix is run, and the commands for the rest, matrixProgress.ts:
 * `--matrix paper`, the default, the BBR paper matrix; `cubic`, issue 38's CUBIC matrix with its
 * Chromium subset, the BBR re-check and the ABR ladder cells).
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { autoGoal, autoGoalTable } from './autoGoal.js';
import { MATRICES, matricesProgressMarkdown } from './matrixProgress.js';
import { AUTO_VARIANTS } from './paperHoldX.js';
import { readRunFiles } from './readRunFiles.js';
import { mergeRuns, readRunsCsv, rejudgeLateness, type MergedRun, type RunRow } from './mergeRuns.js';
import { tableIIMarkdown, writeSummary } from './summarize.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: 'string' }, matrix: { type: 'string', default: 'paper' }, 'late-bar': { type: 'string' } },
});
if (!values.out || positionals.length === 0) {
  console.error(
    `usage: npm run experiment:merge -- DIR|runs.csv [DIR|runs.csv…] --out OUTDIR [--matrix ${Object.keys(MATRICES).join('|')}] [--late-bar MS]`,
  );
  process.exit(2);
}
// --late-bar MS: run files judged again against that lateness bar (rejudgeLateness); runs.csv rows
// keep the verdict they were merged with (they no longer carry each direction's lateness).
const lateBar = values['late-bar'] === undefined ? undefined : Number(values['late-bar']);
if (lateBar !== undefined && !(lateBar > 0)) {
  console.error(`experiment:merge: --late-bar must be a positive number of ms, got ${values['late-bar']}`);
  process.exit(2);
}
const specs = MATRICES[values.matrix!];
if (!specs) {
  console.error(`experiment:merge: --matrix must be one of ${Object.keys(MATRICES).join(', ')}, got ${values.matrix}`);
  process.exit(2);
}
/** A result directory as runs.csv records it: relative to here, or its last two parts if outside. */
const sourceOf = (dir: string): string => {
  const rel = relative(process.cwd(), resolve(dir));
  return rel.startsWith('..') || isAbsolute(rel) ? `…/${resolve(dir).split('/').slice(-2).join('/')}` : rel;
};
const inputs: { run: MergedRun; source: string }[] = [];
const earlier: RunRow[] = [];
for (const dir of positionals) {
  if (statSync(dir, { throwIfNoEntry: false })?.isFile()) {
    earlier.push(...readRunsCsv(readFileSync(dir, 'utf8'), dir));
    continue;
  }
  for (const run of readRunFiles<MergedRun>(dir)) {
    if (run.v === 1 && run.scenario && run.report)
      inputs.push({ run: lateBar === undefined ? run : rejudgeLateness(run, lateBar), source: sourceOf(dir) });
  }
}
const m = mergeRuns(inputs, earlier);
writeSummary(values.out, m);
writeFileSync(join(values.out, 'tableII.md'), tableIIMarkdown(m.summary));
writeFileSync(join(values.out, 'autoGoal.md'), autoGoalTable(autoGoal(m.rows)));
for (const variant of Object.keys(AUTO_VARIANTS).filter((v) => m.rows.some((r) => r.scheme === v))) {
  writeFileSync(join(values.out, `autoGoal-${variant}.md`), autoGoalTable(autoGoal(m.rows, variant)));
}
const progress = matricesProgressMarkdown(m.rows, specs);
writeFileSync(join(values.out, 'progress.md'), progress.markdown);
console.log(`merged ${m.runs.length} runs (${m.invalid} invalid, excluded from means) into ${m.summary.length} rows: ${values.out}`);
console.log(`the ${values.matrix} matrix: ${progress.done} of ${progress.total} runs (progress.md lists the commands for the rest)`);
if (m.duplicates.length) console.warn(`the same run id in more than one input (kept the later start): ${m.duplicates.join(', ')}`);
