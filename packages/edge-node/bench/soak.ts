// `npm run soak -- --minutes 30 [--workers 2] [--hold-parts 2]`: the edge under churn for a long
// while (issue 14's soak, issue 36's goals). Prints RSS, heap, fds, transfers and the origin-bytes
// ratio as it goes, then a summary with every goal and whether it was met; exits 1 if one was not.
// Build first (`npm run build`): the edge and the origin run as the built CLIs.
import { parseArgs } from 'node:util';
import { judgeSoak, runSoak } from './runSoak.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    receivers: { type: 'string', default: '200' },
    streams: { type: 'string', default: '2M-2s,15M-2s,50M-2s,15M-4s' },
    workers: { type: 'string', default: '1' },
    hold: { type: 'string', default: '2' },
    'hold-parts': { type: 'string' },
    'll-share': { type: 'string' },
    'abort-share': { type: 'string', default: '0.1' },
    'check-share': { type: 'string', default: '0.25' },
    tap: { type: 'boolean', default: false },
  },
});
const num = (flag: string, v: string | undefined, ok: (n: number) => boolean): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !ok(n)) {
    console.error(`soak: --${flag}: got ${JSON.stringify(v)}`);
    process.exit(2);
  }
  return n;
};
const positive = (n: number): boolean => Number.isFinite(n) && n > 0;
const share = (n: number): boolean => Number.isFinite(n) && n >= 0 && n <= 1;
const minutes = num('minutes', values.minutes, positive)!;
const receivers = num('receivers', values.receivers, (n) => Number.isInteger(n) && n > 0)!;
const workers = num('workers', values.workers, (n) => Number.isInteger(n) && n >= 1)!;
const hold = num('hold', values.hold, (n) => Number.isInteger(n) && n >= 0)!;
const holdParts = num('hold-parts', values['hold-parts'], (n) => Number.isInteger(n) && n >= 0);
const llShare = num('ll-share', values['ll-share'], share);
const abortShare = num('abort-share', values['abort-share'], share)!;
const checkShare = num('check-share', values['check-share'], share)!;

const r = await runSoak({
  seconds: minutes * 60,
  receivers,
  streams: values.streams.split(','),
  faultEverySeconds: 60,
  faultSeconds: 5,
  sampleSeconds: minutes >= 5 ? 30 : 5,
  workers,
  hold,
  ...(holdParts === undefined ? {} : { holdParts }),
  ...(llShare === undefined ? {} : { llShare }),
  abortShare,
  checkShare,
  tap: values.tap,
});
const goals = judgeSoak(r, { abortShare });
console.log(
  JSON.stringify({
    minutes,
    receivers,
    workers,
    hold,
    holdParts: holdParts ?? null,
    requests: r.requests,
    segments: r.segmentsReceived,
    checked: r.checked,
    unchecked: r.unchecked,
    corrupt: r.corrupt,
    aborted: r.aborted,
    abortShare: +(r.aborted / Math.max(1, r.requests)).toFixed(4),
    cut: r.cut,
    errors: r.errors,
    originBytesRatio: +r.originBytesRatio.toFixed(3),
    maxRssMb: +Math.max(...r.samples.map((s) => s.rssMb).filter(Number.isFinite)).toFixed(0),
    maxHeapMb: +Math.max(...r.samples.map((s) => s.heapMb).filter(Number.isFinite)).toFixed(0),
    fdsBefore: r.fdsBefore,
    fdsAfter: r.fdsAfter,
    streamsIdleS: r.streamsIdleS,
    fdsSettledS: r.fdsSettledS,
    edgeWarnings: r.edgeWarnings,
    originTimeouts: r.originTimeouts,
    prefetchSkipped: r.prefetchSkipped,
  }),
);
// Where the origin bytes went: the edge's count by tier, kind and outcome (MB) and the wire's when
// tapped; objects fetched again and why they had left a cache; the origin's fetches per object.
console.log(`backhaul: ${JSON.stringify({ edgeOriginMB: r.edgeOriginMB, ...(r.wireMB === undefined ? {} : { wireMB: r.wireMB }) })}`);
console.log(`refetched: ${JSON.stringify(r.refetches)}`);
console.log(`origin fetches by object class: ${JSON.stringify(r.split.byClass)}`);
for (const w of r.split.worst) console.log(`fetched ${w.fetches}×: ${w.path} (${w.bytes} bytes)`);
for (const g of goals) console.log(`${g.met ? 'met    ' : 'MISSED '} ${g.goal}: ${g.value}`);
if (goals.some((g) => !g.met)) process.exitCode = 1;
