import { describe, expect, it } from 'vitest';
import { judgeRow, type SessionResult } from './judgeRow.js';
import type { Via } from './SHAPES.js';

const HLS = { id: 'hls-fmp4', format: 'hls', ll: false } as const;
const DASH = { id: 'dash-number', format: 'dash', ll: false } as const;
const L = 2;

const session = (via: Via, group: number, latencyS: number, o: Partial<SessionResult> = {}): SessionResult => ({
  via,
  group,
  playedS: 30,
  latencyS,
  probeLagS: via === 'hold-2' ? 4.1 : 0.1,
  startupS: 1,
  stalls: 0,
  fatalErrors: [],
  originRequests: [],
  edgeSegments: via === 'direct' ? 0 : 20,
  holds: via === 'direct' ? [] : [via === 'hold-2' ? 4 : 0],
  ...o,
});
const VIAS: Via[] = ['direct', 'hold-0', 'hold-2'];
/** Three groups whose start positions differ by up to a segment, as players' do. */
const row = (hold2: (g: number) => number, o: Partial<SessionResult> = {}) =>
  [0, 1, 2].flatMap((g) => [session('direct', g, 6 + g * 0.7), session('hold-0', g, 6.1 + g * 0.7, o), session('hold-2', g, hold2(g), o)]);
const lags = (hold0: number, hold2: number) => ({ 'hold-0': { lags: Array(20).fill(hold0) }, 'hold-2': { lags: Array(20).fill(hold2) } });

describe('judgeRow', () => {
  it('passes a holding cell whose sessions add the declared hold to their hold-0 partners, however far apart the groups sit', () => {
    const cells = judgeRow(
      'shaka',
      HLS,
      VIAS,
      row((g) => 10.1 + g * 0.7),
      lags(0.05, 4.05),
      30,
      L,
    );
    expect(cells.map((c) => [c.via, c.failures])).toEqual([
      ['direct', []],
      ['hold-0', []],
      ['hold-2', []],
    ]);
    const held = cells[2]!;
    expect(held.delta!.mean).toBeCloseTo(4, 9);
    expect(held.delta!.sd).toBeCloseTo(0, 9);
    expect(held.deltaTolerance).toBe(0.5);
    expect(held.latency!.sd).toBeGreaterThan(0.5); // the groups differ; their pairs do not
    expect(held.probeLagDelta).toBeCloseTo(4, 9);
    expect(cells[1]!.deltaRef).toBe('direct');
  });

  it('judges the mean of scattered pairs by its 95 % confidence interval (Student t)', () => {
    // Pairs off by −0.4, +0.6, +0.2 s (a player's start lands anywhere within a segment): mean +0.13.
    const scattered = judgeRow(
      'hls',
      HLS,
      VIAS,
      row((g) => 6.1 + g * 0.7 + 4 + [-0.4, 0.6, 0.2][g]!),
      lags(0.05, 4.05),
      30,
      L,
    )[2]!;
    expect(scattered.deltaTolerance).toBeCloseTo((4.303 * scattered.delta!.sd) / Math.sqrt(3), 9);
    expect(scattered.failures).toEqual([]);
    // The same scatter around 2 s too much: outside it.
    const off = judgeRow(
      'hls',
      HLS,
      VIAS,
      row((g) => 6.1 + g * 0.7 + 6 + [-0.4, 0.6, 0.2][g]!),
      lags(0.05, 4.05),
      30,
      L,
    )[2]!;
    expect(off.failures).toEqual([expect.stringMatching(/^true latency − hold-0 = 6\.13 s \(mean of 3\), declared 4\.00 s ± 1\.25/)]);
  });

  it('fails a holding cell whose manifest adds other than it declares, or whose players saw that', () => {
    const late = judgeRow(
      'dash',
      DASH,
      VIAS,
      row((g) => 10.1 + g * 0.7),
      lags(0.6, 5.2),
      30,
      L,
    );
    expect(late[1]!.failures).toEqual([]); // unheld, a poll late: 0.6 s is within a segment
    expect(late[2]!.failures).toEqual(["manifest behind hold-0's by 4.60 s, declared 4.00 s"]);
    const early = judgeRow(
      'dash',
      DASH,
      VIAS,
      row((g) => 10.1 + g * 0.7),
      lags(2.4, 4.4),
      30,
      L,
    )[1]!;
    expect(early.failures).toEqual(["manifest behind the origin's by 2.40 s (unheld: 0 to a segment)"]);
    const seen = judgeRow(
      'hls',
      HLS,
      VIAS,
      row((g) => 10.1 + g * 0.7, { probeLagS: 1 }),
      lags(0, 4),
      30,
      L,
    )[2]!;
    expect(seen.failures).toEqual(["the players' manifest lag − hold-0's = 0.00 s, declared 4.00 s"]);
  });

  it('an LL-HLS playlist held by whole segments: the players (out of their LL mode) are listed, the edge judged', () => {
    const LL = { id: 'll-hls', format: 'hls', ll: true } as const;
    const cells = judgeRow(
      'shaka',
      LL,
      VIAS,
      row((g) => 16 + g * 0.7, { probeLagS: 4.1 }),
      lags(0.1, 4.9),
      30,
      L,
    );
    const held = cells[2]!;
    expect(held.failures).toEqual(["manifest behind hold-0's by 4.80 s, declared 4.00 s"]);
    expect(held.deltaTolerance).toBeNull();
    expect(held.notes).toEqual([expect.stringMatching(/^an LL-HLS stream held by whole segments/)]);
  });

  it("an LL-HLS playlist held by whole segments declares the players' fallback too: the manifest is judged without it", () => {
    const LL = { id: 'll-hls', format: 'hls', ll: true } as const;
    // 4 s held, 4.5 s of fallback (HOLD-BACK 6 − PART-HOLD-BACK 1.5) declared on top.
    const sessions = [0, 1, 2].flatMap((g) => [
      session('direct', g, 6),
      session('hold-0', g, 6.1),
      session('hold-2', g, 14.6, { holds: [8.5], lowLatencyLost: [4.5] }),
    ]);
    const held = judgeRow('hls', LL, VIAS, sessions, lags(0.1, 4.1), 30, L)[2]!;
    expect(held.declaredS).toBe(8.5);
    expect(held.lostS).toBe(4.5);
    expect(held.failures).toEqual([]);
    // The manifest holding the whole declared hold is as wrong as before.
    const far = judgeRow('hls', LL, VIAS, sessions, lags(0.1, 8.6), 30, L)[2]!;
    expect(far.failures).toEqual(["manifest behind hold-0's by 8.50 s, declared 8.50 s (4.50 s of it the players' low-latency fallback)"]);
  });

  it('fails a cell that went around the edge, stopped, errored or was never paired', () => {
    const cells = judgeRow(
      'dash',
      DASH,
      VIAS,
      row((g) => 10.1 + g * 0.7, { originRequests: ['http://o/live/2M-2s/1.m4s'] }),
      lags(0, 4),
      30,
      L,
    );
    expect(cells[2]!.failures).toHaveLength(3);
    expect(cells[2]!.failures[0]).toMatch(/session 1: 1 requests went around the edge/);
    const stopped = judgeRow(
      'dash',
      DASH,
      VIAS,
      row(() => 10.1, { playedS: 5, fatalErrors: ['QOE_ERR_PLAYER:25'] }),
      lags(0, 4),
      30,
      L,
    )[1]!;
    expect(stopped.failures).toContain('session 1 played 5.0 s < 30 s');
    expect(stopped.failures).toContain('session 1: player errors QOE_ERR_PLAYER:25');
    const alone = judgeRow('dash', DASH, ['hold-2'], [session('hold-2', 0, 10)], { 'hold-2': { lags: Array(20).fill(4) } }, 30, L)[0]!;
    expect(alone.failures).toEqual([
      'true latency against hold-0 not measured',
      "manifest lag against the origin (and hold-0's) not measured",
    ]);
    // A single pair is judged ± (0.5 s + a segment).
    const one = judgeRow('dash', DASH, ['hold-0', 'hold-2'], [session('hold-0', 0, 6), session('hold-2', 0, 12.4)], lags(0, 4), 12, L)[1]!;
    expect(one.deltaTolerance).toBe(2.5);
    expect(one.failures).toEqual([]);
  });
});
