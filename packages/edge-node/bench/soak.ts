// `npm run soak -- --minutes 30`: the edge under churn for a long while (issue 14's soak). Prints
// RSS, heap, fds and the origin-bytes ratio as it goes and a summary with the drift of the heap
// from minute 5 to the end. Build first (`npm run build`): the edge runs as the built CLI.
import { parseArgs } from 'node:util';
import { runSoak } from './runSoak.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    receivers: { type: 'string', default: '200' },
    streams: { type: 'string', default: '2M-2s,15M-2s,50M-2s,15M-4s' },
  },
});
const minutes = Number(values.minutes);
const receivers = Number(values.receivers);
if (!(minutes > 0) || !(receivers > 0)) {
  console.error('soak: --minutes and --receivers must be positive numbers');
  process.exit(2);
}
const r = await runSoak({
  seconds: minutes * 60,
  receivers,
  streams: values.streams.split(','),
  faultEverySeconds: 60,
  faultSeconds: 5,
  sampleSeconds: minutes >= 5 ? 30 : 5,
});
// Heap drift: the mean of the last five minutes against the mean of minutes 5–10 (single samples
// swing with garbage collection by more than the 10 % the goal allows).
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const endS = r.samples[r.samples.length - 1]!.t;
const early = r.samples.filter((x) => x.t >= Math.min(300, endS / 3) && x.t < Math.min(600, (2 * endS) / 3)).map((x) => x.heapMb);
const late = r.samples.filter((x) => x.t >= endS - Math.min(300, endS / 3)).map((x) => x.heapMb);
const at5 = { heapMb: mean(early) };
const end = { heapMb: mean(late) };
console.log(
  JSON.stringify({
    minutes,
    receivers,
    segments: r.segmentsReceived,
    corrupt: r.corrupt,
    errors: r.errors,
    originBytesRatio: +r.originBytesRatio.toFixed(3),
    heapMbMinutes5to10: +at5.heapMb.toFixed(1),
    heapMbLast5Minutes: +end.heapMb.toFixed(1),
    heapDriftPercent: +((100 * (end.heapMb - at5.heapMb)) / at5.heapMb).toFixed(1),
    maxRssMb: +Math.max(...r.samples.map((s) => s.rssMb)).toFixed(0),
    fdsBefore: r.fdsBefore,
    fdsAfter: r.fdsAfter,
  }),
);
