// How late a Node thread wakes from a sub-millisecond sleep: setTimeout (what the relay used to
// sleep on) against Atomics.wait (what its sending thread sleeps on now). Prints p50/p99/max
// lateness in ms over --samples sleeps of 0.2–2.2 ms each. For setTimeout the sleep is asked
// 1 ms early, as the old relay did, so its figures compare with the relay's old lateness.
// Run: npx tsx packages/netlab/scripts/timerPrecision.ts [--samples 3000]
// (under `chrt -f 50` for the relay's priority; add a CPU hog per core for "under load").
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { samples: { type: 'string', default: '3000' } } });
const n = Number(values.samples);
const sleepMs = () => 0.2 + Math.random() * 2;
const quantiles = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(3);
  return `p50 ${q(0.5)}  p99 ${q(0.99)}  max ${s.at(-1)!.toFixed(3)} ms`;
};

const cell = new Int32Array(new SharedArrayBuffer(4));
const wait: number[] = [];
for (let i = 0; i < n; i++) {
  const d = sleepMs();
  const due = performance.now() + d;
  Atomics.wait(cell, 0, 0, d);
  wait.push(performance.now() - due);
}
console.log(`Atomics.wait          ${quantiles(wait)}`);

const timer: number[] = [];
for (let i = 0; i < n; i++) {
  const d = sleepMs();
  const due = performance.now() + d;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, d - 1)));
  timer.push(performance.now() - due);
}
console.log(`setTimeout (1 ms early) ${quantiles(timer)}`);
