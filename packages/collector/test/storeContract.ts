import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseBatch } from '../src/beacon/parseBatch.js';
import { parseEdgeReport } from '../src/beacon/parseEdgeReport.js';
import { WatchClock } from '../src/beacon/WatchClock.js';
import type { ValidBatch } from '../src/beacon/ValidBatch.js';
import { DEFAULT_LIMITS } from '../src/config/CollectorConfig.js';
import { parseFleetFilter } from '../src/query/FleetFilter.js';
import { fleetQuery } from '../src/query/fleetQuery.js';
import { sessionQuery } from '../src/query/sessionQuery.js';
import { sessionsQuery } from '../src/query/sessionsQuery.js';
import { LATEST_SCHEMA } from '../src/store/migrations.js';
import type { Store } from '../src/store/Store.js';
import { batch, ev, type BatchInput } from './fixtures.js';
import { expectSameAsFullScan, totalsMismatches } from './sessionTotalsCheck.js';

const T = 1_800_000_000_000;
// As the collector does: validated, then stamped with its time watched. One clock per store under
// test (storeContract's beforeAll), as one collector has one: the same sessions go to every store.
let watch = new WatchClock();
export const at = (o: BatchInput, receivedMs: number): ValidBatch => {
  const b = parseBatch(JSON.stringify(batch(o)), receivedMs, DEFAULT_LIMITS);
  watch.stamp(b);
  return b;
};
const q = (s: string) => new URLSearchParams(s);
const count = async (store: Store, table: string, session: string) =>
  Number((await store.all(`SELECT count(*) AS n FROM ${table} WHERE session_id = $1`, [session]))[0]!['n']);

/**
 * What every store must do alike (DuckDB and PostgreSQL run the same checks): migrate, store a
 * batch whole or not at all, skip duplicates, and answer the fleet queries with the same numbers.
 * `open` gives a store on a fresh database; `reopen` the same database again (after close).
 */
export function storeContract(open: () => Promise<{ store: Store; reopen: () => Promise<Store> } | null>): void {
  let store: Store;
  let reopen: () => Promise<Store>;
  let skipped = false;
  beforeAll(async () => {
    watch = new WatchClock();
    const s = await open();
    if (s === null) {
      skipped = true;
      return;
    }
    ({ store, reopen } = s);
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  it('migrates to the newest schema, and a reopen applies nothing twice and keeps the data', async (ctx) => {
    if (skipped) ctx.skip();
    expect(await store.schemaVersion()).toBe(LATEST_SCHEMA);
    expect(await store.writeBatches([at({ session: 'keep', seq: 0, sentAt: T, events: [ev.startup(T - 100, 900)] }, T)])).toEqual([true]);
    await store.close();
    store = await reopen();
    expect(await store.schemaVersion()).toBe(LATEST_SCHEMA);
    expect(Number((await store.all('SELECT count(*) AS n FROM schema_migrations'))[0]!['n'])).toBe(LATEST_SCHEMA);
    expect(await count(store, 'batches', 'keep')).toBe(1);
    expect(await count(store, 'events', 'keep')).toBe(1);
  });

  it('stores a resent batch once: across calls and within one group', async (ctx) => {
    if (skipped) ctx.skip();
    const b = (seq: number) =>
      at({ session: 'dup', seq, sentAt: T + seq, events: [ev.latency(T + seq - 1, 5), ev.stall(T + seq - 500, 100)] }, T + seq);
    expect(await store.writeBatches([b(0), b(1), b(0)])).toEqual([true, true, false]);
    expect(await store.writeBatches([b(1), b(2)])).toEqual([false, true]);
    // A resend alone, as a beacon retried after a lost answer comes.
    expect(await store.writeBatches([b(2)])).toEqual([false]);
    expect(await count(store, 'batches', 'dup')).toBe(3);
    expect(await count(store, 'events', 'dup')).toBe(6);
    expect(await count(store, 'latency', 'dup')).toBe(3);
    expect(await count(store, 'stalls', 'dup')).toBe(3);
    expect(await count(store, 'sessions', 'dup')).toBe(1);
  });

  it('writes a group in one transaction: a row the database refuses leaves nothing of any batch', async (ctx) => {
    if (skipped) ctx.skip();
    const good = at({ session: 'tx-good', seq: 0, sentAt: T, events: [ev.startup(T - 1, 10)] }, T);
    const broken = at({ session: 'tx-bad', seq: 0, sentAt: T, events: [ev.startup(T - 1, 10), ev.latency(T - 1, 3)] }, T);
    // Past validation nothing can fail a constraint, so break one by hand: an event without a type (NOT NULL).
    (broken.events[1] as { type: unknown }).type = null;
    await expect(store.writeBatches([good, broken])).rejects.toMatchObject({ code: 'COLLECTOR_ERR_STORE' });
    for (const s of ['tx-good', 'tx-bad'])
      for (const t of ['sessions', 'batches', 'events', 'latency']) expect(await count(store, t, s), `${t} ${s}`).toBe(0);
    // The same good batch alone is stored: the failed transaction left no lock or half state.
    expect(await store.writeBatches([good])).toEqual([true]);
  });

  it('answers the fleet view: startup percentiles, rebuffering, stalls per hour, latency, by dimension', async (ctx) => {
    if (skipped) ctx.skip();
    const F = T + 3_600_000; // an hour of its own, after the other tests' batches
    const m = (scheme: string, edge: string) => ({ scheme, edge, stream: '2M-2s', player: 'hls.js' });
    // Each session: two batches 10 s apart, the first covering 10 s from its first event: 20 s watched.
    const session = (id: string, meta: Record<string, string>, startupMs: number, stallMs: number, latencies: number[]) => [
      at(
        {
          session: id,
          seq: 0,
          sentAt: F + 10_000,
          meta,
          events: [
            ev.segment(F, 'http://e/live/2M-2s/index.m3u8', 'manifest', 1000),
            ev.startup(F + startupMs, startupMs),
            ...latencies.map((l, i) => ev.latency(F + 2000 + i * 1000, l)),
          ],
        },
        F + 10_050,
      ),
      at({ session: id, seq: 1, sentAt: F + 20_000, meta, events: stallMs ? [ev.stall(F + 15_000, stallMs)] : [] }, F + 20_050),
    ];
    await store.writeBatches([
      ...session('fa', m('e2e', 'origin'), 1000, 2000, [3, 4, 5]),
      ...session('fb', m('hold-2', 'edge-1'), 2000, 0, [7, 8, 9]),
      ...session('fc', m('hold-2', 'edge-2'), 3000, 1000, [8, 9, 10]),
    ]);
    const range = `from=${F}&to=${F + 3_600_000}`;
    const byScheme = await fleetQuery(store, parseFleetFilter(q(`${range}&by=scheme&bucket=minute`), F));
    expect(byScheme.groups).toEqual(
      [
        {
          group: 'e2e',
          sessions: 1,
          startupP50Ms: 1000,
          startupP95Ms: 1000,
          rebufferRatio: 0.1,
          stalls: 1,
          stallsPerHour: 180,
          sessionsWithStalls: 1,
          watchHours: 20_000 / 3_600_000,
          latencyP50S: 4,
          latencyP95S: 4.9,
          latencyP99S: 4.98,
          latencySamples: 3,
        },
        {
          group: 'hold-2',
          sessions: 2,
          startupP50Ms: 2500,
          startupP95Ms: 2950,
          rebufferRatio: 1000 / 40_000,
          stalls: 1,
          stallsPerHour: 90,
          sessionsWithStalls: 1,
          watchHours: 40_000 / 3_600_000,
          latencyP50S: 8.5,
          latencyP95S: expect.closeTo(9.75, 9),
          latencyP99S: expect.closeTo(9.95, 9),
          latencySamples: 6,
        },
      ].map((g) => ({
        ...g,
        watchHours: expect.closeTo(g.watchHours, 12),
        latencyP95S: typeof g.latencyP95S === 'number' ? expect.closeTo(g.latencyP95S, 9) : g.latencyP95S,
        latencyP99S: typeof g.latencyP99S === 'number' ? expect.closeTo(g.latencyP99S, 9) : g.latencyP99S,
      })),
    );
    // Per minute (by the collector's clock): both batches of every session fall in the first.
    expect(byScheme.series.map((p) => [p.t, p.group, p.sessions, p.stalls])).toEqual([
      [F, 'e2e', 1, 1],
      [F, 'hold-2', 2, 1],
    ]);
    // Latency histogram in 0.5 s bins.
    expect(byScheme.latencyBins.filter((b) => b.group === 'hold-2').map((b) => [b.fromS, b.count])).toEqual([
      [7, 1],
      [8, 2],
      [9, 2],
      [10, 1],
    ]);
    // A filter keeps only its sessions; no `by` puts them in one group.
    const edge1 = await fleetQuery(store, parseFleetFilter(q(`${range}&edge=edge-1`), F));
    expect(edge1.groups.map((g) => [g.group, g.sessions, g.startupP50Ms])).toEqual([['all', 1, 2000]]);
    // The time range is by the collector's clock: from after the first batches leaves the second only.
    const late = await fleetQuery(store, parseFleetFilter(q(`from=${F + 15_000}&to=${F + 3_600_000}&by=scheme`), F));
    expect(late.groups.map((g) => [g.group, g.sessions, g.startupP50Ms, g.stalls, g.latencySamples])).toEqual([
      ['e2e', 1, null, 1, 0],
      ['hold-2', 2, null, 1, 0],
    ]);
  });

  it('gives latency percentiles within 0.01 s of the exact percentile_cont below 60 s, 1 s above', async (ctx) => {
    if (skipped) ctx.skip();
    const L = T + 10_800_000; // an hour of its own
    // Seeded: 600 samples, most of them seconds with decimals, some repeated, a tail of minutes.
    let seed = 7;
    const r = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const xs = Array.from({ length: 600 }, (_, i) => (i % 10 === 0 ? 4 : i % 25 === 1 ? 60 + r() * 900 : 2 + r() * 14));
    const batches = Array.from({ length: 20 }, (_, seq) =>
      at(
        {
          session: 'lat',
          seq,
          sentAt: L + seq * 5000,
          meta: { scheme: 'lat-test' },
          events: xs.slice(seq * 30, seq * 30 + 30).map((x, i) => ev.latency(L + seq * 5000 - 1000 + i, x)),
        },
        L + seq * 5000 + 10,
      ),
    );
    await store.writeBatches(batches);
    const view = await fleetQuery(store, parseFleetFilter(q(`from=${L}&to=${L + 3_600_000}&scheme=lat-test`), L));
    const sorted = [...xs].sort((a, b) => a - b);
    const exact = (p: number) => {
      const pos = p * (sorted.length - 1);
      const k = Math.floor(pos);
      return sorted[k]! + (pos - k) * (sorted[k + 1]! - sorted[k]!);
    };
    const [g] = view.groups;
    expect(g!.latencySamples).toBe(600);
    for (const [p, v] of [
      [0.5, g!.latencyP50S],
      [0.95, g!.latencyP95S],
      [0.99, g!.latencyP99S],
    ] as const) {
      const e = exact(p);
      expect(Math.abs(v! - e), `p${p * 100}: ${v} vs ${e}`).toBeLessThanOrEqual(e < 60 ? 0.01 : 1);
    }
    // The histogram counts every sample once, those from 60 s on in its last bin.
    expect(view.latencyBins.reduce((a, b) => a + b.count, 0)).toBe(600);
    expect(view.latencyBins.find((b) => b.fromS === 60)?.count).toBe(xs.filter((x) => x >= 60).length);
    expect(view.latencyBins.find((b) => b.fromS === 4)?.count).toBe(xs.filter((x) => x >= 4 && x < 4.5).length);
  });

  it('lists sessions newest first with their gaps, and gives one session its timeline', async (ctx) => {
    if (skipped) ctx.skip();
    const G = T + 7_200_000;
    await store.writeBatches([
      at({ session: 'gap', seq: 0, sentAt: G, meta: { scheme: 'auto' }, events: [ev.startup(G - 500, 400), ev.latency(G - 100, 6)] }, G),
      at({ session: 'gap', seq: 2, sentAt: G + 10_000, events: [ev.stall(G + 5000, 800)], report: { startupMs: 400 } }, G + 10_000),
      at({ session: 'newer', seq: 0, sentAt: G + 20_000, events: [] }, G + 20_000),
    ]);
    const list = await sessionsQuery(store, parseFleetFilter(q(`from=${G}`), G), 10, 0);
    expect(list.map((s) => s.session)).toEqual(['newer', 'gap']);
    expect(list[1]).toMatchObject({ scheme: 'auto', batches: 2, missingBatches: 1, startupMs: 400, stalls: 1, stallMs: 800, ended: true });
    expect((await sessionsQuery(store, parseFleetFilter(q(`from=${G}`), G), 1, 1)).map((s) => s.session)).toEqual(['gap']);
    const d = await sessionQuery(store, 'gap', 100);
    expect(d).toMatchObject({
      session: 'gap',
      scheme: 'auto',
      meta: { scheme: 'auto' },
      report: { startupMs: 400 },
      eventsTruncated: false,
    });
    expect(d!.events.map((e) => e.type)).toEqual(['startup', 'latency', 'stallEnd']);
    expect(d!.batches.map((b) => b.seq)).toEqual([0, 2]);
    expect(d!.stalls).toEqual([{ startMs: G + 5000, endMs: G + 5800, durationMs: 800, interruptedBy: null }]);
    expect((await sessionQuery(store, 'gap', 2))!.events.map((e) => e.type)).toEqual(['latency', 'stallEnd']);
    expect(await sessionQuery(store, 'nobody', 10)).toBeNull();
  });

  it("joins what the edges did for a session (their reports, by the CMCD sid): each edge and stream's newest", async (ctx) => {
    if (skipped) ctx.skip();
    const report = (edge: string, receivedMs: number, hits: number, hold: number) =>
      parseEdgeReport(
        JSON.stringify({
          v: 1,
          edge,
          sentAt: receivedMs,
          sessions: [
            {
              session: 'gap',
              stream: 'http://o/live/2M-2s/index.m3u8',
              hold,
              group: 'hold-x',
              redirect: undefined,
              manifests: hits,
              hits,
              coalesced: 1,
              misses: 1,
              firstAtMs: 5,
              lastAtMs: receivedMs,
            },
          ],
        }),
        receivedMs,
        100,
      );
    await store.writeEdgeFacts(report('mec-1', T + 1000, 3, 2));
    await store.writeEdgeFacts(report('mec-1', T + 6000, 7, 3));
    await store.writeEdgeFacts(report('mec-2', T + 7000, 1, 0));
    const d = await sessionQuery(store, 'gap', 10);
    expect(d!.edges.map((e) => [e.edge, e.hold, e.hits, e.group])).toEqual([
      ['mec-1', 3, 7, 'hold-x'],
      ['mec-2', 0, 1, 'hold-x'],
    ]);
  });

  it("keeps each session's totals as a full scan of its batches computes them (resends, refused groups and all)", async (ctx) => {
    if (skipped) ctx.skip();
    expect(await totalsMismatches(store)).toEqual([]);
  });

  it('answers any range as a full scan of its batches would: sessions it holds whole from their totals, the others from batches', async (ctx) => {
    if (skipped) ctx.skip();
    const F = T + 3_600_000;
    const G = T + 7_200_000;
    const L = T + 10_800_000;
    const byScheme = 'by=scheme&bucket=minute'; // lat's batches fall in two minutes
    const whole = 'by=none&bucket=day';
    const filtered = 'by=edge&bucket=hour&scheme=hold-2';
    const cases = [
      ...[byScheme, whole, filtered].map((split) => `from=0&to=${T + 86_400_000}&${split}`), // every session whole
      `from=${F + 15_000}&to=${F + 3_600_000}&${byScheme}`, // cuts fa, fb, fc after their first batch
      `from=${F}&to=${F + 15_000}&${filtered}`, // … and before their second
      `from=${G + 5000}&to=${G + 15_000}&${whole}`, // gap's second batch only
      `from=${L + 40_000}&to=${L + 80_000}&${byScheme}`, // the middle of lat's 20 batches, over two minutes
      `from=${T + 1}&to=${T + 2}&${whole}`, // one of dup's batches
    ];
    for (const c of cases) {
      // A range with nothing in it would prove nothing.
      expect(await expectSameAsFullScan(store, parseFleetFilter(q(c), T)), c).toBeGreaterThan(0);
    }
  });
}
