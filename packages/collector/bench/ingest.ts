// Ingest bench: N probe sessions each sending a beacon batch every INTERVAL s to the built
// collector (its own process, on one core with taskset when there is one, DuckDB in a temp file),
// for SECONDS, with a collector restart (SIGTERM, then a new process on the same file and port)
// in the middle. Each batch is what the probe sends in 5 s of playback: 5 latency samples, 2-3
// segment timings, sometimes a stall. A sender whose request is refused or reset sends the same
// batch again (as a fetch-keepalive sender can; sendBeacon cannot know), so afterwards every
// session must have every seq exactly once: no loss across the restart.
//
//   npx tsx packages/collector/bench/ingest.ts [--sessions 1000] [--interval 5] [--seconds 60] [--no-restart]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '60' },
    'no-restart': { type: 'boolean', default: false },
  },
});
const SESSIONS = Number(values.sessions);
const INTERVAL_MS = Number(values.interval) * 1000;
const SECONDS = Number(values.seconds);
const RESTART = !values['no-restart'];

const here = new URL('.', import.meta.url).pathname;
const bin = join(here, '../bin/ethle-collector.js');
const dir = mkdtempSync(join(tmpdir(), 'ethle-ingest-'));
const db = join(dir, 'bench.duckdb');
const hasTaskset = spawnSync('sh', ['-c', 'command -v taskset'], { encoding: 'utf8' }).status === 0;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

/** The collector on core 0 (the bench's senders stay off it); resolves once it listens. */
function startCollector(port: number): Promise<ChildProcess> {
  const args = [bin, '--port', String(port), '--db', db, '--max-pending', '200000'];
  const p = hasTaskset
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    p.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('listening on')) resolve(p);
    });
    p.once('exit', (code) => reject(new Error(`collector exited ${code}: ${out}`)));
  });
}

/** utime + stime of a process, s (from /proc: a Linux bench). */
function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

const port = await freePort();
let collector = await startCollector(port);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const T0 = Date.now();
const latencies: number[] = [];
let restartAt = Infinity;
let restartEnd = Infinity;
let retries = 0;
const refusedBy: Record<string, number> = {};
let cpu = 0;

function post(body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/beacon',
        method: 'POST',
        agent,
        headers: { 'content-type': 'text/plain;charset=UTF-8', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      refusedBy[e.code ?? 'error'] = (refusedBy[e.code ?? 'error'] ?? 0) + 1;
      resolve(0);
    });
    req.end(body);
  });
}

function batch(session: string, seq: number, now: number): string {
  const events: { type: string; data: Record<string, unknown> }[] = [];
  for (let i = 0; i < 5; i++)
    events.push({
      type: 'latency',
      data: { at: now - 5000 + i * 1000, trueLatency: 6 + Math.random(), edgeDistance: 2 + Math.random(), holdSeconds: 4 },
    });
  for (let i = 0; i < 2 + (seq % 2); i++) {
    const t = now - 4000 + i * 2000;
    events.push({
      type: 'segment',
      data: {
        kind: 'media',
        url: `http://edge.example:8080/live/15M-2s/v/${seq * 3 + i}.m4s?CMCD=sid%3D%22${session}%22`,
        track: 'main',
        requestStart: t,
        firstByte: t + 20,
        lastByte: t + 300,
        bytes: 3_700_000,
        throughputBps: 98e6,
        transferBps: 105e6,
        duration: 2,
        rendition: '3',
        connection: 'reused',
      },
    });
  }
  if (seq % 7 === 3) events.push({ type: 'stallEnd', data: { start: now - 3000, end: now - 2200, durationMs: 800, signals: ['waiting'] } });
  return JSON.stringify({
    v: 1,
    session,
    seq,
    target: 'hls',
    sentAt: now,
    meta: { stream: '15M-2s', scheme: seq % 2 ? 'hold-2' : 'auto', edge: `mec-${session.length % 4}`, player: 'hls.js' },
    events,
  });
}

/** One session: a batch every INTERVAL from its phase; a refused batch is sent again until stored. */
async function session(i: number): Promise<number> {
  const id = `bench-${i.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  let seq = 0;
  let next = T0 + (i / SESSIONS) * INTERVAL_MS;
  while (next < T0 + SECONDS * 1000) {
    const wait = next - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const body = batch(id, seq, Date.now());
    for (let attempt = 0; ; attempt++) {
      const t = performance.now();
      const status = await post(body);
      if (status === 200) {
        const at = Date.now();
        // Latency of answered requests outside the restart window: the steady-state figure.
        if (at < restartAt || at > restartEnd + INTERVAL_MS) latencies.push(performance.now() - t);
        break;
      }
      if (status !== 0) refusedBy[String(status)] = (refusedBy[String(status)] ?? 0) + 1;
      retries += 1;
      await new Promise((r) => setTimeout(r, Math.min(2000, 50 * 2 ** attempt)));
    }
    seq += 1;
    next += INTERVAL_MS;
  }
  return seq;
}

const health: unknown[] = [];
const readHealth = async () => {
  try {
    const h = (await (await fetch(`http://127.0.0.1:${port}/v1/health`)).json()) as Record<string, unknown>;
    health.push({
      transactions: h['transactions'],
      batchesPerTransaction: h['batchesPerTransaction'],
      transactionMs: h['transactionMs'],
      refused: h['refused'],
    });
  } catch {
    health.push(null);
  }
};
const restarter = (async () => {
  if (!RESTART) return;
  await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 2));
  await readHealth();
  restartAt = Date.now();
  cpu += cpuSeconds(collector.pid!);
  const exited = new Promise((r) => collector.once('exit', r));
  collector.kill('SIGTERM');
  await exited;
  collector = await startCollector(port);
  restartEnd = Date.now();
})();

const sent = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => session(i)));
await restarter;
const elapsed = (Date.now() - T0) / 1000;
await readHealth();
cpu += cpuSeconds(collector.pid!);
const exited = new Promise((r) => collector.once('exit', r));
collector.kill('SIGTERM');
await exited;
agent.destroy();

// Every seq of every session exactly once.
const inst = await DuckDBInstance.create(db);
const c = await inst.connect();
const rows = (
  await c.runAndReadAll('SELECT session_id, count(*) AS n, count(DISTINCT seq) AS d, max(seq) AS m FROM batches GROUP BY session_id')
).getRowObjectsJS();
const stored = rows.reduce((a, r) => a + Number(r['n']), 0);
const gaps = rows.filter((r) => Number(r['d']) !== Number(r['m']) + 1 || Number(r['n']) !== Number(r['d'])).length;
const events = Number((await c.runAndReadAll('SELECT count(*) AS n FROM events')).getRowObjectsJS()[0]!['n']);
c.closeSync();
inst.closeSync();
rmSync(dir, { recursive: true, force: true });

latencies.sort((a, b) => a - b);
const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(1);
const total = sent.reduce((a, b) => a + b, 0);
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(
  JSON.stringify(
    {
      sessions: SESSIONS,
      intervalS: INTERVAL_MS / 1000,
      seconds: SECONDS,
      elapsedS: Number(elapsed.toFixed(1)),
      batchesSent: total,
      batchesPerSecond: Number((total / elapsed).toFixed(1)),
      stored,
      sessionsWithGaps: gaps,
      lost: total - stored,
      eventsStored: events,
      latencyMs: { p50: Number(q(0.5)), p99: Number(q(0.99)), max: Number(q(1)), n: latencies.length },
      restart: RESTART ? { downMs: restartEnd - restartAt, retries, refusedBy } : null,
      collectorTransactions: health,
      collectorCpuShareOfOneCore: Number((cpu / elapsed).toFixed(3)),
      pinnedToOneCore: hasTaskset,
      loadavg: load,
    },
    null,
    2,
  ),
);
