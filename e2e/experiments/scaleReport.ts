/**
 * `npm run experiment:scale -- DIR… --out docs/experiments/scale/`: the scale experiment's table
 * (table.md) and the data behind its CDFs — receivers.csv (one row per receiver per run) and
 * cdf.csv (startup and buffering per receiver, as value/fraction points per stream × join × N × scheme).
 * --include-invalid: also runs whose relays were late (marked in the table's runs column).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { toCsv } from './mergeRuns.js';
import { readRunFiles } from './readRunFiles.js';
import { cdfRows, scaleTable, type ScaleRun } from './scaleTable.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: 'string' }, 'include-invalid': { type: 'boolean', default: false } },
});
if (!values.out || positionals.length === 0) {
  console.error('usage: npm run experiment:scale -- DIR [DIR…] --out OUTDIR');
  process.exit(2);
}
const runs: ScaleRun[] = [];
for (const dir of positionals) {
  for (const r of readRunFiles<ScaleRun>(dir)) {
    if (r.scale && r.receivers) runs.push(r);
  }
}
const { markdown, receiverRows } = scaleTable(runs, { includeInvalid: values['include-invalid'] });
mkdirSync(values.out, { recursive: true });
writeFileSync(join(values.out, 'table.md'), markdown);
const cols = [
  'run',
  'stream',
  'rtt_ms',
  'backhaul_mbps',
  'join',
  'n',
  'cell',
  'scheme',
  'receiver',
  'join_ms',
  'startup_s',
  'stalls',
  'buffering_s',
  'latency_s',
  'error',
];
writeFileSync(join(values.out, 'receivers.csv'), toCsv(cols, receiverRows));
writeFileSync(
  join(values.out, 'cdf.csv'),
  toCsv(
    ['stream', 'rtt_ms', 'backhaul_mbps', 'cell', 'join', 'n', 'scheme', 'metric', 'value', 'fraction'],
    [...cdfRows(receiverRows, 'startup_s'), ...cdfRows(receiverRows, 'buffering_s')],
  ),
);
console.log(`${runs.length} runs → ${join(values.out, 'table.md')}, receivers.csv, cdf.csv`);
process.stdout.write(markdown);
