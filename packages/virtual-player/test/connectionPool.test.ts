/**
 * The virtual player's pool reuses connections as Chromium does (the most recently used idle one;
 * a never-used one only when no used one is idle), on a real HTTP server that names the client
 * port each request arrived on.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createConnectionPool, type ConnectionPool } from '../src/net/createConnectionPool.js';
import { fetchTimed } from '../src/net/fetchTimed.js';
import { waitFor } from './helpers/waitFor.js';

let server: Server;
let origin: string;
/** Requests to /hold/… wait here until the test lets them answer. */
const held = new Map<string, () => void>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const answer = () => res.end(String(req.socket.remotePort));
    if (req.url?.startsWith('/hold/')) held.set(req.url, answer);
    else if (req.url?.startsWith('/holdfail/')) held.set(req.url, () => req.socket.destroy());
    else if (req.url === '/fail') req.socket.destroy();
    else answer();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

let pool: ConnectionPool;
afterEach(async () => {
  await pool.destroy();
  held.clear();
});

const get = (path: string, signal = new AbortController().signal) =>
  fetchTimed(pool, `${origin}${path}`, { keepBody: true, signal, now: Date.now });
const port = (r: { body: Buffer }) => Number(r.body.toString());

async function untilHeld(path: string): Promise<() => void> {
  for (let i = 0; i < 500 && !held.has(path); i++) await new Promise((r) => setImmediate(r));
  const f = held.get(path);
  if (!f) throw new Error(`${path} never reached the server`);
  return f;
}

describe('createConnectionPool (Chromium reuse)', () => {
  it('lends the most recently used idle connection, not the first one opened', async () => {
    pool = createConnectionPool({ maxPerOrigin: 6, keepAliveTimeoutMs: 30_000, maxOrigins: 4 });
    // Two connections in use at once: A (opened first) and B.
    const a = get('/hold/a');
    await untilHeld('/hold/a');
    const b = get('/hold/b');
    await untilHeld('/hold/b');
    // A goes idle first, B last: B is the most recently used.
    held.get('/hold/a')!();
    const ra = await a;
    held.get('/hold/b')!();
    const rb = await b;
    expect(rb.connection).not.toBe(ra.connection);
    // undici's Pool would lend A (first in creation order); Chromium lends B.
    const next = await get('/next');
    expect(next.connection).toBe(rb.connection);
    expect(port(next)).toBe(port(rb));
    // Now the other way round: B goes idle first, A last.
    const a2 = get('/hold/a2');
    await untilHeld('/hold/a2'); // on B (newest idle)
    const b2 = get('/hold/b2');
    await untilHeld('/hold/b2'); // on A
    held.get('/hold/a2')!();
    await a2;
    held.get('/hold/b2')!();
    const rb2 = await b2;
    expect(rb2.connection).toBe(ra.connection);
    expect((await get('/last')).connection).toBe(ra.connection);
  });

  it('records a fresh connection as previousRequests 0 and counts its reuse', async () => {
    pool = createConnectionPool({ maxPerOrigin: 6, keepAliveTimeoutMs: 30_000, maxOrigins: 4 });
    const first = await get('/1');
    const second = await get('/2');
    expect(first.previousRequests).toBe(0);
    expect(second.connection).toBe(first.connection);
    expect(second.previousRequests).toBe(1);
    expect(port(second)).toBe(port(first));
  });

  it('opens at most maxPerOrigin connections; a request past it waits for one to go idle', async () => {
    pool = createConnectionPool({ maxPerOrigin: 2, keepAliveTimeoutMs: 30_000, maxOrigins: 4 });
    const r1 = get('/hold/1');
    const r2 = get('/hold/2');
    await untilHeld('/hold/1');
    await untilHeld('/hold/2');
    const r3 = get('/3');
    let done3 = false;
    void r3.then(() => (done3 = true));
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(done3).toBe(false);
    held.get('/hold/2')!();
    const [x2, x3] = await Promise.all([r2, r3]);
    expect(x3.connection).toBe(x2.connection);
    held.get('/hold/1')!();
    await r1;
  });

  it('drops a connection whose request failed: the next request gets a fresh one', async () => {
    pool = createConnectionPool({ maxPerOrigin: 6, keepAliveTimeoutMs: 30_000, maxOrigins: 4 });
    const ok = await get('/ok');
    await expect(get('/fail')).rejects.toMatchObject({ code: 'ERR_VPLAYER_HTTP' });
    const after = await get('/after');
    expect(after.previousRequests).toBe(0);
    expect(after.connection).not.toBe(ok.connection);
  });

  it('a connection closed while idle leaves the pool: the next request is a fresh flow, as a browser discards a dead socket', async () => {
    // The server closes idle connections after 300 ms (the live origin: Node's 5 s); undici would
    // reconnect inside the same Client.
    server.keepAliveTimeout = 300;
    pool = createConnectionPool({ maxPerOrigin: 6, keepAliveTimeoutMs: 30_000, maxOrigins: 4 });
    const first = await get('/one');
    await waitFor('the idle connection to close', () => pool.connections(origin) === 0, 5_000, 10).finally(
      () => (server.keepAliveTimeout = 60_000),
    );
    const next = await get('/two');
    expect(next.previousRequests).toBe(0);
    expect(next.connection).not.toBe(first.connection);
    expect(port(next)).not.toBe(port(first));
  });

  it('a request waiting for the only connection gets a fresh one when that connection fails', async () => {
    pool = createConnectionPool({ maxPerOrigin: 1, keepAliveTimeoutMs: 30_000, maxOrigins: 4 });
    const ok = await get('/warm');
    const failing = get('/holdfail/1');
    await untilHeld('/holdfail/1');
    const waiting = get('/queued');
    held.get('/holdfail/1')!();
    await expect(failing).rejects.toMatchObject({ code: 'ERR_VPLAYER_HTTP' });
    const r = await waiting;
    expect(r.previousRequests).toBe(0);
    expect(r.connection).not.toBe(ok.connection);
    expect(pool.connections(origin)).toBe(1);
  });

  it('an aborted wait leaves the queue and rejects', async () => {
    pool = createConnectionPool({ maxPerOrigin: 1, keepAliveTimeoutMs: 30_000, maxOrigins: 4 });
    const r1 = get('/hold/only');
    await untilHeld('/hold/only');
    const ac = new AbortController();
    const waiting = get('/queued', ac.signal);
    ac.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    held.get('/hold/only')!();
    const r = await r1;
    // The aborted waiter did not take the connection: the next request reuses it.
    expect((await get('/next')).connection).toBe(r.connection);
  });
});
