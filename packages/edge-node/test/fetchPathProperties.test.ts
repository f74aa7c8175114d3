import fc from 'fast-check';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TIMER_MS } from '@ethle/core';
import { CacheEntry } from '../src/cache/CacheEntry.js';
import { SegmentCache } from '../src/cache/SegmentCache.js';
import { serveEntry } from '../src/cache/serveEntry.js';
import { parseRange } from '../src/http/parseRange.js';
import { sendDeadlineMs } from '../src/http/sendDeadlineMs.js';
import { DEADLINE_SEGMENTS, fetchLimits, IDLE_SEGMENTS } from '../src/origin/fetchLimits.js';
import { OriginClient } from '../src/origin/OriginClient.js';
import type { OriginFetchReport } from '../src/origin/OriginFetchReport.js';
import { RangeAssembler } from '../src/origin/RangeAssembler.js';
import { startTestOrigin } from './helpers/startTestOrigin.js';

// Issue 36: property tests over what comes from origins and receivers on the edge's fetch path —
// durations and timescales into deadlines, byte ranges, objects fetched as parallel ranges of any
// size from any estimate, ranges served from an object while it arrives.

/** Segment durations as origins write them: decimal text (≤ 5 places), 29.97/59.94 fps frame counts, DASH ticks. */
const durationSeconds = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 99_999 }))
    .map(([s, f]) => Number(`${s}.${String(f).padStart(5, '0')}`)),
  fc.integer({ min: 1, max: 1800 }).map((frames) => (frames * 1001) / 30_000),
  fc.integer({ min: 1, max: 3600 }).map((frames) => (frames * 1001) / 60_000),
  fc.tuple(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 1, max: 2 ** 40 })).map(([ts, d]) => d / ts),
);

describe('deadlines from origin durations', () => {
  it('fetchLimits: whole numbers AbortSignal.timeout() takes, ≥ the minimum and ≥ their durations (never rounded shorter), idle ≤ deadline', () => {
    fc.assert(
      fc.property(fc.option(durationSeconds, { nil: undefined }), fc.integer({ min: 10, max: 600_000 }), (d, minMs) => {
        const { idleMs, deadlineMs } = fetchLimits(d, minMs);
        for (const [t, segments] of [
          [idleMs, IDLE_SEGMENTS],
          [deadlineMs, DEADLINE_SEGMENTS],
        ] as const) {
          expect(Number.isInteger(t)).toBe(true);
          expect(t).toBeGreaterThanOrEqual(minMs);
          expect(t).toBeLessThanOrEqual(MAX_TIMER_MS);
          if (d !== undefined && segments * d * 1000 < MAX_TIMER_MS) expect(t).toBeGreaterThanOrEqual(segments * d * 1000 - 1e-6);
          AbortSignal.timeout(t);
        }
        expect(idleMs).toBeLessThanOrEqual(deadlineMs);
      }),
    );
  });

  it('sendDeadlineMs: whole, ≥ the floor, ≥ the time at the minimum rate, and longer for a larger response', () => {
    fc.assert(
      fc.property(
        fc.nat(2 ** 40),
        fc.nat(2 ** 30),
        fc.double({ min: 1000, max: 1e10, noNaN: true }),
        fc.integer({ min: 100, max: 3_600_000 }),
        (a, extra, rate, floor) => {
          const t = sendDeadlineMs(a, rate, floor);
          expect(Number.isInteger(t)).toBe(true);
          expect(t).toBeGreaterThanOrEqual(floor);
          if ((a * 1000) / rate < MAX_TIMER_MS) expect(t).toBeGreaterThanOrEqual((a * 1000) / rate - 1e-6);
          expect(sendDeadlineMs(a + extra, rate, floor)).toBeGreaterThanOrEqual(t);
        },
      ),
    );
  });
});

describe('byte ranges', () => {
  /** RFC 9110 §14 for one range, written plainly: the reference parseRange must agree with. */
  function reference(
    first: number | undefined,
    last: number | undefined,
    size: number,
  ): { start: number; end: number } | 'unsatisfiable' | undefined {
    if (first === undefined && last === undefined) return undefined;
    if (first === undefined) return last === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - last!), end: size - 1 };
    if (last !== undefined && last < first) return undefined;
    if (first >= size) return 'unsatisfiable';
    return { start: first, end: Math.min(last ?? size - 1, size - 1) };
  }
  const bound = fc.option(fc.nat(2 ** 42), { nil: undefined });

  it('parseRange agrees with RFC 9110 for any single range of any object, and a served range is inside the object', () => {
    fc.assert(
      fc.property(bound, bound, fc.nat(2 ** 42), fc.constantFrom('bytes=', 'BYTES =', ' bytes= '), (first, last, size, prefix) => {
        const header = `${prefix}${first ?? ''}-${last ?? ''}`;
        const r = parseRange(header, size);
        expect(r).toEqual(reference(first, last, size));
        if (r !== undefined && r !== 'unsatisfiable') {
          expect(r.start).toBeGreaterThanOrEqual(0);
          expect(r.start).toBeLessThanOrEqual(r.end);
          expect(r.end).toBeLessThan(size);
        }
      }),
    );
  });

  it('several ranges, other units and junk are answered whole (undefined), never with wrong bytes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.nat(2 ** 42), (junk, size) => {
        const r = parseRange(junk, size);
        if (!/^\s*bytes\s*=\s*\d*\s*-\s*\d*\s*$/i.test(junk)) expect(r).toBeUndefined();
        expect(parseRange(`bytes=0-1,${junk}`, size)).toBeUndefined();
      }),
    );
  });

  it('RangeAssembler: parts cut anywhere, arriving in chunks in any order, come out as the object in order', () => {
    const gen = fc
      .record({
        size: fc.integer({ min: 0, max: 5000 }),
        cuts: fc.array(fc.nat(5000), { maxLength: 6 }),
        chunk: fc.integer({ min: 1, max: 700 }),
        seed: fc.nat(),
      })
      .map((g) => {
        const bounds = [...new Set(g.cuts.map((c) => c % (g.size + 1)))].sort((a, b) => a - b);
        const edges = [0, ...bounds.filter((b) => b > 0 && b < g.size), g.size];
        return { ...g, edges };
      });
    fc.assert(
      fc.property(gen, ({ size, edges, chunk, seed }) => {
        const object = Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + 3) & 0xff));
        const parts = edges.length - 1;
        const out: Buffer[] = [];
        const asm = new RangeAssembler(Math.max(1, parts), (c) => out.push(c));
        // Every part's chunks, then a pseudo-random interleaving that keeps each part's own order.
        const queues = Array.from({ length: parts }, (_, p) => {
          const q: Buffer[] = [];
          for (let o = edges[p]!; o < edges[p + 1]!; o += chunk) q.push(object.subarray(o, Math.min(o + chunk, edges[p + 1]!)));
          return q;
        });
        let s = seed;
        const open = new Set(queues.keys());
        while (open.size > 0) {
          s = (s * 1_103_515_245 + 12_345) >>> 0;
          const p = [...open][s % open.size]!;
          const c = queues[p]!.shift();
          if (c === undefined) {
            asm.end(p);
            open.delete(p);
          } else asm.chunk(p, c);
        }
        if (parts === 0) asm.end(0);
        expect(asm.complete).toBe(true);
        expect(Buffer.concat(out).equals(object)).toBe(true);
      }),
    );
  });
});

describe('objects fetched as parallel byte ranges', () => {
  const clients: OriginClient[] = [];
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const c of closers.splice(0)) await c();
  });

  it('any object size, any size estimate (short or long), any part count: the entry holds exactly the object', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 * 1024 * 1024 }),
        fc.double({ min: 0.3, max: 3, noNaN: true }),
        fc.integer({ min: 2, max: 6 }),
        async (size, misestimate, parts) => {
          const origin = await startTestOrigin({ segmentBytes: size, ranges: true });
          closers.push(origin.close);
          origin.produce(1);
          const cache = new SegmentCache({ maxBytes: 64 * 1024 * 1024, maxAgeMs: 60_000, now: () => Date.now() });
          let reported!: (r: OriginFetchReport) => void;
          const report = new Promise<OriginFetchReport>((r) => (reported = r));
          const client = new OriginClient({
            name: 'o',
            url: origin.url,
            connections: 8,
            connectionsPerStream: 8,
            maxQueued: 8,
            headersTimeoutMs: 5000,
            bodyTimeoutMs: 5000,
            cache,
            onFetch: (r) => reported(r),
          });
          clients.push(client);
          const entry = cache.create('o/live/a/seg0.ts');
          const approxBytes = Math.max(1, Math.round(size * misestimate));
          client.fetchInto('/live/a/seg0.ts', entry, {
            priority: 'player',
            group: 's',
            limits: { idleMs: 10_000, deadlineMs: 10_000 },
            split: { parts, approxBytes },
          });
          await entry.whenComplete();
          expect(entry.bytes).toBe(size);
          expect(Buffer.concat(entry.chunks).equals(origin.body(0))).toBe(true);
          const r = await report;
          expect(r.outcome).toBe('ok');
          // Split only where each part is worth its round trip (≥ 256 KiB by the estimate).
          const k = Math.min(parts, Math.floor(approxBytes / (256 * 1024)));
          expect(r.parts).toBe(k >= 2 ? k : 1);
          expect(cache.budget.held('transit')).toBe(0);
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe('ranges served from an object while it arrives', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server === undefined ? r() : server.close(() => r()))));

  it('any single range, any chunking of the arriving body: 206 with exactly those bytes (416 past the end)', async () => {
    let current: { entry: CacheEntry } | undefined;
    server = createServer((req, res) => {
      void serveEntry(current!.entry, req, res, {
        head: false,
        headers: () => current!.entry.responseHeaders('coalesced', false),
        onError: () => 502,
        onBug: (e) => {
          throw e;
        },
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 200_000 }),
        fc.nat(250_000),
        fc.option(fc.nat(250_000), { nil: undefined }),
        fc.integer({ min: 1, max: 50_000 }),
        async (size, first, last, chunk) => {
          const object = Buffer.from(Array.from({ length: size }, (_, i) => (i * 13 + 5) & 0xff));
          const entry = new CacheEntry('k', Date.now());
          current = { entry };
          const header = `bytes=${first}-${last ?? ''}`;
          const pending = request(url, { headers: { range: header } });
          // The body arrives after the request, in chunks, a macrotask apart.
          entry.setHeaders({ 'content-type': 'video/mp4' }, size);
          const step = Math.max(chunk, Math.ceil(size / 100)); // at most 100 chunks
          for (let o = 0; o < size; o += step) {
            await new Promise((r) => setImmediate(r));
            entry.push(object.subarray(o, Math.min(size, o + step)));
          }
          entry.end();
          const res = await pending;
          const body = Buffer.from(await res.body.arrayBuffer());
          const want = parseRange(header, size);
          if (want === 'unsatisfiable') expect(res.statusCode).toBe(416);
          else if (want === undefined) {
            expect(res.statusCode).toBe(200);
            expect(body.equals(object)).toBe(true);
          } else {
            expect(res.statusCode).toBe(want.start === 0 && want.end === size - 1 ? 200 : 206);
            expect(body.equals(object.subarray(want.start, want.end + 1))).toBe(true);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
