import { describe, expect, it } from 'vitest';
import { filledEntry as filled } from './helpers/filledEntry.js';
import { SegmentCache } from '../src/cache/SegmentCache.js';
import { createEdgeConfig, EdgeError, ranThroughputFromSignal, rsrpIndexToDbm, rsrqIndexToDb } from '../src/index.js';
import { FetchScheduler } from '../src/origin/FetchScheduler.js';
import { RttEstimator } from '../src/origin/RttEstimator.js';
import { readCmcd } from '../src/radio/readCmcd.js';
import { PolicyGroups as SessionTable } from '@ethle/core';

describe('createEdgeConfig', () => {
  it('fills defaults and accepts several named origins', () => {
    const c = createEdgeConfig({
      origins: [
        { name: 'a', url: 'http://127.0.0.1:1/' },
        { name: 'b', url: 'https://x.example/base/' },
      ],
    });
    expect(c.origins.map((o) => o.url)).toEqual(['http://127.0.0.1:1', 'https://x.example/base']);
    expect(c.hold).toBe('auto');
    expect(c.ranFailAction).toBe('redirect-307');
  });
  it.each([
    [{}, /origin: required/],
    [{ origin: 'ftp://x' }, /only http and https/],
    [{ origin: 'not a url' }, /not a URL/],
    [{ origin: 'http://x', hold: -1 }, /hold/],
    [{ origin: 'http://x', hold: 9, maxHold: 4 }, /exceeds maxHold/],
    [{ origin: 'http://x', ranFailAction: 'redirect-301' }, /301/],
    [{ origin: 'http://x', port: 70000 }, /port/],
    [{ origin: 'http://x', bogus: 1 }, /unknown option/],
    [{ origins: [{ name: 'metrics', url: 'http://x' }] }, /reserved/],
    [{ origin: 'http://x', tls: { keyPath: 'k' } }, /certPath/],
    [{ origin: 'http://x', originPublicUrl: 'ftp://y' }, /originPublicUrl.*only http/],
    [{ origins: [{ name: 'a', url: 'http://x' }], originPublicUrl: 'http://y' }, /originPublicUrl: goes with origin/],
    [{ origin: 'http://x', holdParts: 1.5 }, /holdParts: expected an integer/],
    [{ origin: 'http://x', holdParts: -1 }, /holdParts/],
    [{ origin: 'http://x', role: 'parent', holdParts: 2 }, /a parent never holds/],
    [{ origin: 'http://x', role: 'parent', holdParts: 'auto' }, /a parent never holds/],
    [{ origin: 'http://x', holdParts: 'some' as never }, /holdParts/],
    [{ origin: 'http://x', maxBlockedPerStream: 0 }, /maxBlockedPerStream/],
    [{ origin: 'http://x', lowerHoldAfterSegments: -1 }, /lowerHoldAfterSegments/],
    [{ origin: 'http://x', lowerHoldAfterSamples: 0 }, /lowerHoldAfterSamples/],
    [{ origin: 'http://x', lowerHoldAfterSamples: 1.5 }, /lowerHoldAfterSamples: expected an integer/],
    [{ origin: 'http://x', holdFloor: 'none' as never }, /holdFloor/],
    [{ origin: 'http://x', segmentStart: 'hot' as never }, /segmentStart: 'slow-start' .*, 'warm' .* or 'learn' .*, got "hot"/],
    [{ origin: 'http://x', redirectSustainMs: -1 }, /redirectSustainMs: must be between 0 and 600000, got -1/],
    [{ origin: 'http://x', redirectSustainMs: 600_001 }, /redirectSustainMs: must be between/],
    [{ origin: 'http://x', redirectSustainMs: '30s' as never }, /redirectSustainMs: expected a number/],
  ])('rejects %j with a coded, actionable error', (input, msg) => {
    let err: unknown;
    try {
      createEdgeConfig(input as never);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EdgeError);
    expect((err as EdgeError).code).toBe('ERR_EDGE_CONFIG_INVALID');
    expect((err as EdgeError).message).toMatch(msg);
  });
  it('holdParts: unset by default (LL held in whole segments), 0 allowed (LL through the edge, nothing held)', () => {
    expect(createEdgeConfig({ origin: 'http://x' }).holdParts).toBeUndefined();
    expect(createEdgeConfig({ origin: 'http://x', holdParts: 0 }).holdParts).toBe(0);
    expect(createEdgeConfig({ origin: 'http://x', holdParts: 'auto' }).holdParts).toBe('auto');
    expect(createEdgeConfig({ origin: 'http://x', holdParts: 3 }).maxBlockedPerStream).toBe(1000);
  });
  it("lowering x: nextStreamHold's dwell (4 segment periods, 3 samples) unless set", () => {
    expect(createEdgeConfig({ origin: 'http://x' })).toMatchObject({
      lowerHoldAfterSegments: 4,
      lowerHoldAfterSamples: 3,
      holdFloor: 'model',
    });
    expect(createEdgeConfig({ origin: 'http://x', holdFloor: 'measured' }).holdFloor).toBe('measured');
    expect(createEdgeConfig({ origin: 'http://x' }).segmentStart).toBe('learn');
    // A redirect (eq. 3) needs 30 s of measurements unless set (issue 38); 0 is the rule before.
    expect(createEdgeConfig({ origin: 'http://x' }).redirectSustainMs).toBe(30_000);
    expect(createEdgeConfig({ origin: 'http://x', redirectSustainMs: 0 }).redirectSustainMs).toBe(0);
    expect(createEdgeConfig({ origin: 'http://x', segmentStart: 'slow-start' }).segmentStart).toBe('slow-start');
    expect(createEdgeConfig({ origin: 'http://x', segmentStart: 'warm' }).segmentStart).toBe('warm');
    expect(createEdgeConfig({ origin: 'http://x', segmentStart: 'learn' }).segmentStart).toBe('learn');
    expect(createEdgeConfig({ origin: 'http://x', lowerHoldAfterSegments: 0.5, lowerHoldAfterSamples: 1 })).toMatchObject({
      lowerHoldAfterSegments: 0.5,
      lowerHoldAfterSamples: 1,
    });
  });
  it('duration options (ms) become whole numbers a timer takes (AbortSignal.timeout throws on a fraction)', () => {
    const c = createEdgeConfig({
      origin: 'http://127.0.0.1:1',
      originHeadersTimeoutMs: 2500.5,
      drainMs: 0.2,
      cache: { maxAgeMs: 1000.0001 },
    });
    expect([c.originHeadersTimeoutMs, c.drainMs, c.cache.maxAgeMs]).toEqual([2501, 1, 1001]);
  });
  it('accepts hold as a CLI string', () => {
    expect(createEdgeConfig({ origin: 'http://x', hold: '2' }).hold).toBe(2);
  });
});

describe('SegmentCache', () => {
  it('evicts least recently used complete entries to stay within bytes', () => {
    const cache = new SegmentCache({ maxBytes: 300, maxAgeMs: 60_000, now: () => 0 });
    filled(cache, 'a', 100);
    filled(cache, 'b', 100);
    filled(cache, 'c', 100);
    cache.get('a'); // a is now most recently used
    filled(cache, 'd', 100);
    expect(cache.has('a')).toBe(true);
    expect(cache.has('b')).toBe(false);
    expect(cache.bytes).toBe(300);
  });
  it('never evicts an entry being read or written; a new one is bypassed instead', () => {
    let bypassed = 0;
    const cache = new SegmentCache({ maxBytes: 200, maxAgeMs: 60_000, now: () => 0, onBypass: () => bypassed++ });
    const read = filled(cache, 'a', 100);
    read.pin();
    const writing = cache.create('b');
    expect(cache.admit(writing, 100)).toBe(true);
    const c = cache.create('c');
    expect(cache.admit(c, 100)).toBe(false);
    expect(bypassed).toBe(1);
    expect(cache.has('a') && cache.has('b')).toBe(true);
  });
  it('one budget: an entry still read after it left the cache stays counted (as transit) until its last reader leaves', () => {
    const cache = new SegmentCache({ maxBytes: 300, maxAgeMs: 60_000, now: () => 0 });
    const a = filled(cache, 'a', 100);
    a.pin();
    cache.release(a); // evicted, replaced or bypassed while a receiver reads it
    expect(cache.bytes).toBe(0);
    expect(cache.budget.held('transit')).toBe(100);
    expect(cache.hasRoom(250)).toBe(false);
    a.unpin();
    expect(cache.budget.held()).toBe(0);
    expect(cache.hasRoom(300)).toBe(true);
  });
  it('ages out complete unread entries', () => {
    let t = 0;
    const cache = new SegmentCache({ maxBytes: 1000, maxAgeMs: 1000, now: () => t });
    filled(cache, 'a', 10);
    t = 2000;
    cache.sweep();
    expect(cache.has('a')).toBe(false);
    expect(cache.bytes).toBe(0);
  });
});

describe('FetchScheduler', () => {
  it('runs waiting players before bulk prefetch, and promotes a queued prefetch a player now needs', async () => {
    const s = new FetchScheduler({ limit: 1, groupLimit: 1, maxQueued: 10 });
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    s.enqueue('p0', 'g', 'prefetch', async () => {
      order.push('p0');
      await gate;
    });
    const job = (k: string) => async () => {
      order.push(k);
    };
    s.enqueue('p1', 'g', 'prefetch', job('p1'));
    s.enqueue('p2', 'g', 'prefetch', job('p2'));
    s.enqueue('r1', 'g', 'player', job('r1'));
    expect(s.promote('p2')).toBe(true);
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['p0', 'r1', 'p2', 'p1']);
  });
});

describe('RttEstimator', () => {
  it('takes the minimum over the window and keeps the newest sample', () => {
    const r = new RttEstimator(1000);
    r.add('ttfb', 50, 0);
    r.add('connect', 20, 10);
    r.add('ttfb', 30, 20);
    expect(r.estimateMs(20)).toBe(20);
    expect(r.estimateMs(5000)).toBe(30);
  });
});

describe('SessionTable', () => {
  it('moves hold-0 → hold-x when eq. 1 fails and never back', () => {
    const t = new SessionTable(60_000);
    expect(t.assign('s', 'a', true, 0)).toEqual({ group: 'hold-0', from: undefined });
    expect(t.assign('s', 'a', false, 1)).toEqual({ group: 'hold-x', from: 'hold-0' });
    expect(t.assign('s', 'a', true, 2)).toEqual({ group: 'hold-x', from: 'hold-x' });
    expect(t.counts('s')).toEqual({ 'hold-0': 0, 'hold-x': 1 });
  });
});

describe('radio inputs', () => {
  it('decodes CMCD from the query and from headers (mtp kbit/s → Mbit/s)', () => {
    const q = new URLSearchParams({ CMCD: 'bl=21300,mtp=48100,sid="6e2fb550"' });
    expect(readCmcd(q, {})).toEqual({ sid: '6e2fb550', mtpMbps: 48.1, blMs: 21300 });
    expect(readCmcd(undefined, { 'cmcd-request': 'mtp=2500', 'cmcd-session': 'sid="x1"' })).toMatchObject({ sid: 'x1', mtpMbps: 2.5 });
    expect(readCmcd(new URLSearchParams({ CMCD: '%%%garbage' }), {}).mtpMbps).toBeUndefined();
  });
  it('maps RSRP/RSRQ to throughput monotonically, anchored at the documented points', () => {
    expect(ranThroughputFromSignal(-80, -5)).toBeCloseTo(112, 5);
    expect(ranThroughputFromSignal(-120, -19)).toBe(0);
    expect(ranThroughputFromSignal(-90, -8)).toBeGreaterThan(ranThroughputFromSignal(-100, -8));
    expect(ranThroughputFromSignal(-90, -8)).toBeGreaterThan(ranThroughputFromSignal(-90, -12));
    expect(rsrpIndexToDbm(61)).toBe(-80);
    expect(rsrqIndexToDb(30)).toBe(-5);
  });
});

describe('decideHold (edge adapter over the core model)', () => {
  it('corrects the model online with the backhaul throughput actually achieved, never upwards', async () => {
    const { decideStreamHold: decideHold } = await import('@ethle/core');
    const base = { rttMs: 10, segmentBytes: 500_000, segmentSeconds: 2, ranMbps: 100, initialWindow: 10, maxHold: 4 };
    const model = decideHold(base);
    expect(model.eq1).toBe(true);
    expect(model.hold).toBe(1);
    // 1.5 Mbit/s achieved: a segment takes 2.67 s → eq. 1 fails, eq. 2 needs x = 2.
    const slow = decideHold({ ...base, measuredBackhaulMbps: 1.5 });
    expect(slow.eq1).toBe(false);
    expect(slow.hold).toBe(2);
    expect(slow.backhaulMbps).toBe(1.5);
    // Faster than the model: the model (optimistic upper bound) stays.
    expect(decideHold({ ...base, measuredBackhaulMbps: 1e5 })).toEqual(model);
  });
});
