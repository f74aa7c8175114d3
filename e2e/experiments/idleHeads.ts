// How fast each origin delivered the head of an object after an idle gap, against slow start:
// the evidence for OUTPACE_SHARE (ethle-core, outpacesSlowStart.ts). Reads the `idle fetch` lines
// of the edge logs (EXP_EDGE_LOG=1) in experiment result directories, groups them by the run's
// congestion control, and prints each group's share = (headMs − RTT) / slow start's time for
// headBytes from the initial window. A restarting origin (CUBIC) must lie above OUTPACE_SHARE, an
// origin that kept its window (BBR) below it.
//   npx tsx e2e/experiments/idleHeads.ts results/outpace-cubic results/outpace-bbr
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUTPACE_SHARE, slowStartDeliverySeconds } from '@ethle/core';

interface Head {
  cc: string;
  run: string;
  path: string;
  idleMs: number;
  headBytes: number;
  headMs: number;
  verdict: string;
  share: number;
}

/** The run's RTT and congestion control from its id (`50M-2s-224ms-lte-a-cubic-…`). */
function runFacts(id: string): { rttMs: number; cc: string } | undefined {
  const rtt = /-(\d+)ms-/.exec(id);
  if (!rtt) return undefined;
  const cc = /-(cubic|bbr|reno)-/.exec(id)?.[1] ?? 'bbr';
  return { rttMs: Number(rtt[1]), cc };
}

const heads: Head[] = [];
/** Each run's learnt segment start, in the order the edge logged it. */
const learnt: string[] = [];
for (const dir of process.argv.slice(2)) {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.edge.log'))) {
    const run = file.slice(0, -'.edge.log'.length);
    const facts = runFacts(run);
    if (!facts) continue;
    const changes: string[] = [];
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (line.includes('"origin segment start learnt"')) changes.push((JSON.parse(line) as { learned: string }).learned);
      if (!line.includes('"idle fetch"')) continue;
      const r = JSON.parse(line) as { path: string; verdict: string; idleMs: number; headBytes: number; headMs: number };
      const slowStart = slowStartDeliverySeconds({ bytes: r.headBytes, rttSeconds: facts.rttMs / 1000 });
      heads.push({ ...r, cc: facts.cc, run, share: (r.headMs - facts.rttMs) / 1000 / slowStart });
    }
    learnt.push(`${run}: ${changes.length > 0 ? changes.join(' → ') : 'nothing learnt'}`);
  }
}

/** Idle gaps in RTO-sized bands: Linux halves an idle window once per RTO (tcp_cwnd_restart). */
const BANDS: [string, number, number][] = [
  ['< 1 s', 0, 1000],
  ['1–2 s', 1000, 2000],
  ['2–4 s', 2000, 4000],
  ['≥ 4 s', 4000, Infinity],
];
const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
console.log(`OUTPACE_SHARE = ${OUTPACE_SHARE}\n`);
console.log('| origin | idle fetches | verdict warm / slow-start | share min | p10 | median | p90 | max | head bytes, median |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const cc of [...new Set(heads.map((h) => h.cc))].sort()) {
  const group = heads.filter((h) => h.cc === cc);
  const shares = group.map((h) => h.share).sort((a, b) => a - b);
  const bytes = group.map((h) => h.headBytes).sort((a, b) => a - b);
  const warm = group.filter((h) => h.verdict === 'warm').length;
  const f = (v: number) => v.toFixed(3);
  console.log(
    `| ${cc} | ${group.length} | ${warm} / ${group.length - warm} | ${f(quantile(shares, 0))} | ${f(quantile(shares, 0.1))} | ${f(quantile(shares, 0.5))} | ${f(quantile(shares, 0.9))} | ${f(quantile(shares, 1))} | ${quantile(bytes, 0.5)} |`,
  );
}

console.log('\nBy idle gap:\n');
console.log('| origin | idle gap | fetches | warm | share median | share min–max |');
console.log('|---|---|---|---|---|---|');
for (const cc of [...new Set(heads.map((h) => h.cc))].sort()) {
  for (const [label, lo, hi] of BANDS) {
    const group = heads.filter((h) => h.cc === cc && h.idleMs >= lo && h.idleMs < hi);
    if (group.length === 0) continue;
    const shares = group.map((h) => h.share).sort((a, b) => a - b);
    const warm = group.filter((h) => h.verdict === 'warm').length;
    console.log(
      `| ${cc} | ${label} | ${group.length} | ${warm} | ${quantile(shares, 0.5).toFixed(3)} | ${quantile(shares, 0).toFixed(3)}–${quantile(shares, 1).toFixed(3)} |`,
    );
  }
}
console.log('\nWhat each run learnt:\n');
for (const l of learnt) console.log(`- ${l}`);
