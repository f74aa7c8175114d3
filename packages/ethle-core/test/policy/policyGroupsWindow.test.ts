import { describe, expect, it } from 'vitest';
import { PolicyGroups, chooseRadioEstimate, shouldRedirect, type RadioEstimate } from '../../src/index.js';

/** The edge's own measurement of `mbps`, new each time (`n` moves what it rests on). */
const radio = (mbps: number, n: number): RadioEstimate =>
  chooseRadioEstimate({ measured: { bps: mbps * 1e6, bytes: 4e6 + n }, segmentBytes: 3.7e6, segmentsDownloaded: n, defaultBps: 100e6 });

// Issue 38: a redirect needs the receiver's measurements over a window in time, so each session
// keeps when each was noted — bounded, however often a receiver reloads.
describe('PolicyGroups: a session’s measurements over the redirect window', () => {
  it('notes when each measurement came; the same one seen again and defaults are not kept', () => {
    const g = new PolicyGroups(120_000, 100, 30_000);
    const a = radio(20, 1);
    g.note('s', 'r', a, 0);
    g.note('s', 'r', a, 2000); // the same measurement on the next reload
    g.note('s', 'r', chooseRadioEstimate({ segmentBytes: 3.7e6, segmentsDownloaded: 0, defaultBps: 5e6 }), 3000);
    const b = radio(30, 2);
    const h = g.note('s', 'r', b, 4000);
    expect(h.requests).toBe(4);
    expect(h.estimates).toEqual([
      { bps: 20e6, source: 'measured', atMs: 0 },
      { bps: 30e6, source: 'measured', atMs: 4000 },
    ]);
    // The handover token carries the latest measurement as it came.
    expect(g.stateOf('s', 'r')?.estimate).toBe(b);
  });

  it('keeps what reaches back the window from the latest, and one before it (the window opens there)', () => {
    const g = new PolicyGroups(120_000, 100, 30_000);
    let h: ReturnType<PolicyGroups['note']> | undefined;
    for (let i = 0; i <= 60; i++) h = g.note('s', 'r', radio(30, i), i * 2000); // two minutes, one every 2 s
    const e = h!.estimates;
    expect(e[e.length - 1]!.atMs).toBe(120_000);
    expect(e[0]!.atMs).toBe(90_000);
    expect(e).toHaveLength(16);
    expect(shouldRedirect({ requests: 61, estimates: e, bitrateBps: 48.8e6 })).toMatchObject({
      redirect: true,
      evidence: { spanMs: 30_000 },
    });
  });

  it('bounded however fast a receiver reloads: one measurement per thirtieth of the window, still covering it', () => {
    const g = new PolicyGroups(120_000, 100, 30_000);
    let h: ReturnType<PolicyGroups['note']> | undefined;
    // An RNI value at every request, ten a second, for a minute.
    for (let i = 0; i <= 600; i++) h = g.note('s', 'r', { ...radio(30, i), source: 'rni' }, i * 100);
    const e = h!.estimates;
    expect(e.length).toBeLessThanOrEqual(32);
    expect(e[e.length - 1]).toMatchObject({ atMs: 60_000 });
    expect(e[e.length - 1]!.atMs - e[0]!.atMs).toBeGreaterThanOrEqual(30_000);
    expect(shouldRedirect({ requests: 601, estimates: e, bitrateBps: 48.8e6 }).redirect).toBe(true);
  });

  it('measurements just under a slot apart still build up the window (slots are fixed in time)', () => {
    const g = new PolicyGroups(120_000, 100, 30_000);
    let h: ReturnType<PolicyGroups['note']> | undefined;
    for (let i = 0; i <= 40; i++) h = g.note('s', 'r', radio(30, i), i * 900);
    const e = h!.estimates;
    expect(e[e.length - 1]!.atMs - e[0]!.atMs).toBeGreaterThanOrEqual(30_000);
    expect(e.length).toBeLessThanOrEqual(32);
  });

  it('with no window (0) it keeps the last four, as before', () => {
    const g = new PolicyGroups(120_000, 100, 0);
    let h: ReturnType<PolicyGroups['note']> | undefined;
    for (let i = 0; i < 10; i++) h = g.note('s', 'r', radio(10 + i, i), i);
    expect(h!.estimates.map((e) => e.bps / 1e6)).toEqual([16, 17, 18, 19]);
  });

  it('a handed-over session’s measurement counts from its arrival here', () => {
    const g = new PolicyGroups(120_000, 100, 30_000);
    const m = radio(10, 1);
    g.adopt('s', 'r', { group: 'hold-x', requests: 9, estimate: m, x: 2 }, 50_000);
    const h = g.note('s', 'r', radio(10, 2), 52_000);
    expect(h.estimates).toEqual([
      { bps: 10e6, source: 'measured', atMs: 50_000 },
      { bps: 10e6, source: 'measured', atMs: 52_000 },
    ]);
  });
});
