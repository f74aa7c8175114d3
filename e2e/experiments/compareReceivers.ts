/**
 * `npx tsx e2e/experiments/compareReceivers.ts DIR…`: pairs the Chromium and virtual runs in the
 * given result directories (same scenario and repeat, so the same seeded radio) and prints a
 * markdown table with the validation criteria of issue 16 item 2 checked per pair.
 */
import type { MergedRun } from './mergeRuns.js';
import { readRunFiles } from './readRunFiles.js';
import { receiverPairs } from './receiverPairs.js';

const runs: MergedRun[] = [];
for (const dir of process.argv.slice(2)) {
  for (const r of readRunFiles<MergedRun>(dir)) {
    if (r.scenario && r.report) runs.push(r);
  }
}
const pairs = receiverPairs(runs);
const f = (v: number | null, d = 2) => (v === null ? '–' : v.toFixed(d));
const star = (b: boolean) => (b ? '*' : '');
const ok = (b: boolean) => (b ? 'yes' : 'no');
console.log(
  '| scenario | startup Chromium / virtual (s) | within 15 % | buffering Chromium / virtual (s) | within 1 s or 15 % | stalls Chromium / virtual | ± 1 | latency Chromium / virtual (s) | median segment time Chromium / virtual (s) | segments on a new connection Chromium / virtual | next-request gap Chromium / virtual (ms) | segments moved to a media-cold connection, virtual |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const p of pairs) {
  console.log(
    `| ${p.key} | ${f(p.chromium.startupS)}${star(p.chromium.invalid)} / ${f(p.virtual.startupS)}${star(p.virtual.invalid)} | ${ok(p.startupOk)} | ${f(p.chromium.stallS)} / ${f(p.virtual.stallS)} | ${ok(p.bufferingOk)} | ${p.chromium.stalls} / ${p.virtual.stalls} | ${ok(p.stallsOk)} | ${f(p.chromium.latencyS, 1)} / ${f(p.virtual.latencyS, 1)} | ${f(p.chromium.segmentS)} / ${f(p.virtual.segmentS)} | ${p.chromium.freshFlowSegments ?? '–'} / ${p.virtual.freshFlowSegments ?? '–'} | ${f(p.chromium.nextRequestGapMs, 0)} / ${f(p.virtual.nextRequestGapMs, 0)} | ${p.virtual.movedSegments ?? '–'} |`,
  );
}
const n = (k: 'startupOk' | 'bufferingOk' | 'stallsOk') => pairs.filter((p) => p[k]).length;
console.log(
  `\n${pairs.length} pairs (* = invalid run): startup ${n('startupOk')}/${pairs.length}, buffering ${n('bufferingOk')}/${pairs.length}, stalls ${n('stallsOk')}/${pairs.length} within the criteria`,
);
