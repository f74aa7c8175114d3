import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollectorConfig } from '../src/config/createCollectorConfig.js';
import { startCollector, type RunningCollector } from '../src/http/startCollector.js';
import { batch, ev } from './fixtures.js';

const T = Date.now();
let c: RunningCollector;
const dir = mkdtempSync(join(tmpdir(), 'ethle-collector-'));

beforeAll(async () => {
  c = await startCollector(
    createCollectorConfig({
      port: 0,
      store: { duckdb: join(dir, 'c.duckdb') },
      limits: { maxBodyBytes: 16 * 1024, maxEventsPerBatch: 50, maxBatchesPerSession: 100 },
    }),
    { log: () => undefined },
  );
});
afterAll(async () => {
  await c?.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (body: string, headers: Record<string, string> = { 'content-type': 'text/plain;charset=UTF-8' }) =>
  fetch(`${c.url}/v1/beacon`, { method: 'POST', body, headers });
const rows = async (table: string, session: string) =>
  Number((await c.store.all(`SELECT count(*) AS n FROM ${table} WHERE session_id = $1`, [session]))[0]!['n']);

describe('POST /v1/beacon', () => {
  it('stores a sendBeacon batch (text/plain) and a fetch one (application/json), and a resend once', async () => {
    const b = batch({ session: 'web', seq: 0, sentAt: T, events: [ev.startup(T - 10, 300), ev.latency(T - 5, 4)] });
    const r = await post(JSON.stringify(b));
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ stored: true, duplicate: false, session: 'web', seq: 0 });
    const again = await post(JSON.stringify(b), { 'content-type': 'application/json' });
    expect(await again.json()).toMatchObject({ stored: false, duplicate: true });
    expect(await rows('events', 'web')).toBe(2);
    expect(c.stats()).toMatchObject({ stored: 1, duplicates: 1 });
  });

  it('refuses bad input with a status, a code and a reason, and stores nothing of it', async () => {
    const cases: [string, Record<string, string> | undefined, number, string, RegExp][] = [
      ['{"v":1', undefined, 400, 'COLLECTOR_ERR_BAD_BATCH', /not JSON/],
      // The fifth event is bad: none of the four good ones before it may be stored.
      [
        JSON.stringify(
          batch({
            session: 'half',
            seq: 0,
            sentAt: T,
            events: [
              ev.startup(T, 1),
              ev.latency(T, 2),
              ev.latency(T, 3),
              ev.stall(T - 100, 50),
              { type: 'segment', data: { kind: 'media' } },
            ],
          }),
        ),
        undefined,
        400,
        'COLLECTOR_ERR_BAD_BATCH',
        /events\[4\]\.data\.url/,
      ],
      [
        JSON.stringify(batch({ session: 'x', seq: 0, sentAt: T })),
        { 'content-type': 'application/x-www-form-urlencoded' },
        415,
        'COLLECTOR_ERR_CONTENT_TYPE',
        /text\/plain/,
      ],
      [
        JSON.stringify(batch({ session: 'x', seq: 0, sentAt: T, events: Array.from({ length: 51 }, () => ev.latency(T, 1)) })),
        undefined,
        413,
        'COLLECTOR_ERR_TOO_MANY_EVENTS',
        /at most 50/,
      ],
      [JSON.stringify(batch({ session: 'x', seq: 100, sentAt: T })), undefined, 429, 'COLLECTOR_ERR_SESSION_LIMIT', /limit of 100 batches/],
      ['x'.repeat(17 * 1024), undefined, 413, 'COLLECTOR_ERR_TOO_LARGE', /at most 16384/],
    ];
    for (const [body, headers, status, code, message] of cases) {
      const r = await post(body, headers);
      expect(r.status, code).toBe(status);
      const e = ((await r.json()) as { error: { code: string; message: string } }).error;
      expect(e.code).toBe(code);
      expect(e.message).toMatch(message);
    }
    for (const t of ['sessions', 'batches', 'events', 'latency', 'stalls']) expect(await rows(t, 'half')).toBe(0);
  });

  it('refuses a body over the limit while it streams in, without a Content-Length', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${c.url}/v1/beacon`,
        { method: 'POST', headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('y'.repeat(1024));
      req.end();
    });
    expect(status).toBe(413);
  });

  it('answers CORS: a preflight for fetch with JSON, the page origin echoed for sendBeacon', async () => {
    const pre = await fetch(`${c.url}/v1/beacon`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://player.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://player.example');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/content-type/i);
    const r = await post(JSON.stringify(batch({ session: 'cors', seq: 0, sentAt: T })), {
      'content-type': 'text/plain',
      origin: 'http://player.example',
    });
    expect(r.headers.get('access-control-allow-origin')).toBe('http://player.example');
    expect(r.headers.get('access-control-allow-credentials')).toBe('true');
    expect(r.headers.get('vary')).toBe('Origin');
  });

  it('takes a burst of concurrent batches in few transactions and loses none', async () => {
    const n = 300;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        post(
          JSON.stringify(batch({ session: `burst-${i % 30}`, seq: Math.floor(i / 30), sentAt: T, events: [ev.latency(T - 1, i)] })),
        ).then((r) => r.status),
      ),
    );
    expect(results.every((s) => s === 200)).toBe(true);
    expect(Number((await c.store.all("SELECT count(*) AS n FROM batches WHERE session_id LIKE 'burst-%'"))[0]!['n'])).toBe(n);
  });
});

describe('POST /v1/edge', () => {
  it("stores an edge's session facts and shows them in the session's view; refuses a bad report whole", async () => {
    const facts = {
      session: 'web',
      stream: 'http://o/live/2M-2s/index.m3u8',
      hold: 2,
      group: 'hold-x',
      manifests: 4,
      hits: 6,
      coalesced: 1,
      misses: 0,
      firstAtMs: T - 9000,
      lastAtMs: T,
    };
    const r = await fetch(`${c.url}/v1/edge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ v: 1, edge: '127.0.0.1:8080', sentAt: T, sessions: [facts] }),
    });
    expect(await r.json()).toEqual({ stored: 1 });
    const d = (await (await fetch(`${c.url}/v1/sessions/web`)).json()) as { edges: unknown[] };
    expect(d.edges).toEqual([
      expect.objectContaining({ edge: '127.0.0.1:8080', hold: 2, hits: 6, group: 'hold-x', redirectLocation: null }),
    ]);
    const bad = await fetch(`${c.url}/v1/edge`, {
      method: 'POST',
      body: JSON.stringify({ v: 1, edge: 'x', sessions: [facts, { ...facts, hits: -1 }] }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { field: string } }).error.field).toBe('report.sessions[1].hits');
    expect(Number((await c.store.all("SELECT count(*) AS n FROM edge_sessions WHERE edge = 'x'"))[0]!['n'])).toBe(0);
  });
});

describe('the query API', () => {
  it('answers the fleet view, the session list, one session and the dimensions', async () => {
    const fleet = (await (await fetch(`${c.url}/v1/fleet?by=player&from=-1h`)).json()) as { groups: { group: string; sessions: number }[] };
    expect(fleet.groups.map((g) => g.group)).toEqual(['hls']);
    const list = (await (await fetch(`${c.url}/v1/sessions?limit=5`)).json()) as { sessions: { session: string }[] };
    expect(list.sessions).toHaveLength(5);
    const one = await fetch(`${c.url}/v1/sessions/web`);
    expect(((await one.json()) as { events: unknown[] }).events).toHaveLength(2);
    expect(await (await fetch(`${c.url}/v1/dimensions`)).json()).toMatchObject({ player: ['hls'] });
    const runs = (await (await fetch(`${c.url}/v1/runs?limit=2`)).json()) as { runs: { scenario: { player: string } }[] };
    expect(runs.runs).toHaveLength(2);
  });

  it('says what is wrong with a query', async () => {
    const cases: [string, number, string, RegExp][] = [
      ['/v1/fleet?by=colour', 400, 'COLLECTOR_ERR_BAD_QUERY', /by: must be one of/],
      ['/v1/fleet?from=yesterday', 400, 'COLLECTOR_ERR_BAD_QUERY', /from: must be epoch/],
      ['/v1/fleet?from=2000&to=1000', 400, 'COLLECTOR_ERR_BAD_QUERY', /to: must be after from/],
      ['/v1/fleet?colour=red', 400, 'COLLECTOR_ERR_BAD_QUERY', /colour: unknown parameter/],
      ['/v1/sessions?limit=100000000', 400, 'COLLECTOR_ERR_BAD_QUERY', /limit: must be a whole number/],
      ['/v1/sessions/nobody', 404, 'COLLECTOR_ERR_NOT_FOUND', /no session "nobody"/],
      ['/v2/anything', 404, 'COLLECTOR_ERR_NOT_FOUND', /no route/],
    ];
    for (const [path, status, code, message] of cases) {
      const r = await fetch(`${c.url}${path}`);
      expect(r.status, path).toBe(status);
      const e = ((await r.json()) as { error: { code: string; message: string } }).error;
      expect(e.code, path).toBe(code);
      expect(e.message, path).toMatch(message);
    }
    expect((await fetch(`${c.url}/v1/fleet`, { method: 'DELETE' })).status).toBe(405);
  });
});

describe('restart', () => {
  it('keeps every answered batch across a close and a start on the same file', async () => {
    const path = join(dir, 'restart.duckdb');
    const config = createCollectorConfig({ port: 0, store: { duckdb: path } });
    const first = await startCollector(config, { log: () => undefined });
    // Batches in flight when close() is called are answered and stored; new ones are refused.
    const send = (i: number) =>
      fetch(`${first.url}/v1/beacon`, { method: 'POST', body: JSON.stringify(batch({ session: 'r', seq: i, sentAt: T })) }).then(
        (r) => r.status,
        () => 0,
      );
    const early = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i)));
    const late = Array.from({ length: 200 }, (_, i) => send(10 + i));
    const closing = first.close();
    const statuses = [...early, ...(await Promise.all(late))];
    await closing;
    const answered = statuses.filter((s) => s === 200).length;
    // Each batch was either answered 200 (and must be stored), refused as closing, or never connected.
    expect(statuses.filter((s) => s !== 200 && s !== 503 && s !== 0)).toEqual([]);
    expect(answered).toBeGreaterThanOrEqual(10);
    const second = await startCollector(config, { log: () => undefined });
    try {
      const stored = Number((await second.store.all("SELECT count(*) AS n FROM batches WHERE session_id = 'r'"))[0]!['n']);
      expect(stored).toBe(answered);
    } finally {
      await second.close();
    }
  });

  it('says when the file is held by another collector', async () => {
    const { spawnSync } = await import('node:child_process');
    // DuckDB's lock is per process: another process must open it (this one holds c's file).
    const script = `import('@duckdb/node-api').then(async ({ DuckDBInstance }) => { try { await DuckDBInstance.create(${JSON.stringify(join(dir, 'c.duckdb'))}); console.log('opened'); } catch (e) { console.log(/lock/i.test(String(e.message)) ? 'locked' : String(e.message)); } })`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: join(__dirname, '..') });
    expect(r.stdout.trim()).toBe('locked');
  });
});
