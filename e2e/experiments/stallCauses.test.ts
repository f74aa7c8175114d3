import { describe, expect, it } from 'vitest';
import type { RunResult } from '@ethle/player-demo';
import { stallCauses } from './summarize.js';

const T0 = 1_800_000_000_000;
const seg = (n: number, from: number, to: number) => ({
  kind: 'media',
  url: `http://10.77.1.1:8080/live/50M-2s/${n}.m4s`,
  requestStart: T0 + from,
  lastByte: T0 + to,
  bytes: 12_200_000,
  throughputBps: 1,
});
const stall = (at: number) => ({ start: T0 + at, end: T0 + at + 1000, durationMs: 1000 });

function run(segmentRequests: NonNullable<NonNullable<RunResult['edge']>['segmentRequests']> | undefined): RunResult {
  return {
    v: 1,
    id: 'x',
    startedAt: '',
    scenario: { stream: '50M-2s', player: 'hls', scheme: 'auto', durationS: 60 },
    report: {
      startupMs: 1000,
      stalls: { count: 3, totalMs: 3000, list: [stall(1500), stall(5500), stall(9000)] },
      latency: { current: 10, mean: 10 },
      holdSeconds: 4,
      latencySeries: [],
      // 10 in flight 1000–3000 (stall at 1500), 11 in flight 4000–8000 (stall at 5500); at 9000 nothing.
      segments: { count: 3, bytes: 0, list: [seg(10, 1000, 3000), seg(11, 4000, 8000), { ...seg(12, 8000, 8500), kind: 'manifest' }] },
    },
    ...(segmentRequests ? { edge: { segmentRequests } } : {}),
  };
}

describe('stallCauses: what the edge had of the segment a player stalled on', () => {
  it('hit (radio leg), coalesced (still on the backhaul), idle (no segment in flight)', () => {
    const r = run([
      { atS: 1, path: '/live/50M-2s/10.m4s', result: 'hit', bytesAtEdge: 12_200_000 },
      { atS: 4, path: '/live/50M-2s/11.m4s', result: 'coalesced', bytesAtEdge: 3_000_000 },
      // A later request of the same path (another tab) does not change the first answer.
      { atS: 6, path: '/live/50M-2s/11.m4s', result: 'hit', bytesAtEdge: 12_200_000 },
    ]);
    expect(stallCauses(r)).toEqual({ hit: 1, coalesced: 1, miss: 0, idle: 1 });
  });

  it('undefined without the edge log (E2E, older runs)', () => {
    expect(stallCauses(run(undefined))).toBeUndefined();
    expect(stallCauses(run([]))).toBeUndefined();
  });
});
