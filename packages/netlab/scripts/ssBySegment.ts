// Joins an experiment run's media segments (the probe's request start and last byte, epoch ms) with
// `ss -ti` samples of the sender's connections taken meanwhile (sampleSs.sh: the edge's
// client-facing ones, or the origin's in an E2E run): per segment, whether the edge held it, its
// time, and the sender's state while it crossed the links — including retransmissions and RTO
// backoff, which tell a loss recovery from a receiver that does not read (rwnd-limited).
// npx tsx packages/netlab/scripts/ssBySegment.ts SS_FILE RUN.json
import { readFileSync } from 'node:fs';

const [ssFile, runFile] = process.argv.slice(2);
if (!ssFile || !runFile) {
  console.error('usage: ssBySegment.ts SS_FILE RUN.json');
  process.exit(2);
}
interface Sample {
  t: number;
  sendq: number;
  /** The connection: local and peer address:port. */
  conn: string;
  info: string;
}
const run = JSON.parse(readFileSync(runFile, 'utf8')) as {
  report: { segments: { list: { kind: string; url: string; requestStart: number; lastByte: number; throughputBps: number }[] } };
  edge?: { segmentRequests?: { path: string; result: string }[] };
};
const samples: Sample[] = [];
let t = 0;
let head: { t: number; sendq: number; conn: string } | undefined;
for (const l of readFileSync(ssFile, 'utf8').split('\n')) {
  if (l.startsWith('T ')) t = Number(l.slice(2)) * 1000;
  else if (/^\d/.test(l)) {
    const [, sendq, local, peer] = l.trim().split(/\s+/);
    head = { t, sendq: Number(sendq), conn: `${local} ${peer}` };
  } else if (l.startsWith('\t') && head) {
    samples.push({ ...head, info: l });
    head = undefined;
  }
}
const num = (s: Sample, re: RegExp) => Number(re.exec(s.info)?.[1] ?? NaN);
const bbrBw = (s: Sample) => {
  const m = /bbr:\(bw:([\d.]+)([KMG]?)bps/.exec(s.info);
  return m ? (Number(m[1]) * { '': 1, K: 1e3, M: 1e6, G: 1e9 }[m[2] as '' | 'K' | 'M' | 'G']) / 1e6 : NaN;
};
const first = new Map<string, string>();
for (const e of run.edge?.segmentRequests ?? []) if (!first.has(e.path)) first.set(e.path, e.result);
console.log(
  '| segment | edge had it | time (s) | Mbit/s | srtt / min_rtt, mean | samples with srtt > 2 × min_rtt | BBR bw estimate, first → last (Mbit/s) | cwnd, first → last | samples with unsent data at the sender | rwnd-limited | retransmitted (packets) | samples in RTO backoff |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const s of run.report.segments.list.filter((x) => x.kind === 'media')) {
  const path = new URL(s.url).pathname;
  // The connection carrying the segment: the one most often with more than 100 kB queued in its
  // send buffer meanwhile (an edge or origin may have several; counters are per connection).
  const busy = samples.filter((x) => x.t >= s.requestStart && x.t <= s.lastByte && x.sendq > 100_000);
  const byConn = new Map<string, Sample[]>();
  for (const x of busy) {
    const list = byConn.get(x.conn);
    if (list === undefined) byConn.set(x.conn, [x]);
    else list.push(x);
  }
  const during = [...byConn.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  if (during.length < 3) continue;
  const ratio = during.map((x) => num(x, / rtt:([\d.]+)/) / num(x, /minrtt:([\d.]+)/));
  const bw = during.map(bbrBw);
  const cwnd = during.map((x) => num(x, /cwnd:(\d+)/));
  const unsent = during.filter((x) => /notsent:\d+/.test(x.info)).length / during.length;
  const rwndMs = num(during.at(-1)!, /rwnd_limited:(\d+)ms/) - num(during[0]!, /rwnd_limited:(\d+)ms/);
  // `retrans:CUR/TOTAL`: the connection's total retransmitted segments; `backoff:N` while an RTO backs off.
  const retrans = num(during.at(-1)!, /retrans:\d+\/(\d+)/) - (num(during[0]!, /retrans:\d+\/(\d+)/) || 0);
  const backoff = during.filter((x) => / backoff:\d+/.test(x.info)).length;
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–');
  console.log(
    `| ${path.split('/').pop()} | ${first.get(path) ?? '–'} | ${((s.lastByte - s.requestStart) / 1000).toFixed(1)} | ${(s.throughputBps / 1e6).toFixed(0)} | ` +
      `${(ratio.reduce((a, b) => a + b, 0) / ratio.length).toFixed(1)} | ${((ratio.filter((x) => x > 2).length / ratio.length) * 100).toFixed(0)} % | ` +
      `${f(bw[0]!)} → ${f(bw.at(-1)!)} | ${cwnd[0]} → ${cwnd.at(-1)} | ${(unsent * 100).toFixed(0)} % | ${Number.isFinite(rwndMs) ? `${rwndMs} ms` : '0 ms'} | ${Number.isFinite(retrans) ? retrans : 0} | ${backoff} |`,
  );
}
