import { describe, expect, it } from 'vitest';
import { LATE_P99_LIMIT_MS as BAR, relayTimingProblems, type DirectionStats, type LinkStats } from '@ethle/netlab';

const dir = (p99Ms: number, count = 1000): DirectionStats => ({
  packets: count,
  received: count,
  sent: count,
  ringFull: 0,
  bytes: count * 1500,
  drops: 0,
  lossDrops: 0,
  queueBytes: 0,
  maxQueueBytes: 0,
  lateness: { count, p50Ms: -0.4, p99Ms, maxMs: p99Ms + 2 },
});
const link = (up: number, down: number): Pick<LinkStats, 'up' | 'down'> => ({ up: dir(up), down: dir(down) });

describe('relayTimingProblems (is a run valid?)', () => {
  it('none when every direction sent 99 % of its datagrams less late than the bar', () => {
    expect(relayTimingProblems({ ran: link(0.7, BAR - 0.01), backhaul: link(-0.2, 0.5) })).toEqual([]);
  });

  it('names each direction whose p99 reached the bar, with its max and count', () => {
    const p = relayTimingProblems({ ran: link(0.7, BAR), backhaul: link(BAR + 3.2, 0.5) });
    expect(p).toEqual([
      `ran down p99 ${BAR.toFixed(2)} ms (max ${(BAR + 2).toFixed(1)} ms, 1000 datagrams)`,
      `backhaul up p99 ${(BAR + 3.2).toFixed(2)} ms (max ${(BAR + 5.2).toFixed(1)} ms, 1000 datagrams)`,
    ]);
    // Another bar judges the same figures another way.
    expect(relayTimingProblems({ ran: link(0.7, BAR), backhaul: link(BAR + 3.2, 0.5) }, BAR + 4)).toEqual([]);
  });

  it('a direction that carried nothing is not a problem', () => {
    expect(
      relayTimingProblems({ ran: { up: dir(0, 0), down: { ...dir(0, 0), lateness: { count: 0, p50Ms: 0, p99Ms: 0, maxMs: 0 } } } }),
    ).toEqual([]);
  });

  it("with lateness injected on purpose, the relay's own lateness beyond the freezes is judged, not the freezes", () => {
    const injected = { ...dir(BAR + 4.2), naturalLateness: { count: 1000, p50Ms: -0.4, p99Ms: 0.3, maxMs: 0.8 } };
    expect(relayTimingProblems({ ran: { up: injected, down: injected } })).toEqual([]);
    const late = { ...injected, naturalLateness: { count: 1000, p50Ms: -0.4, p99Ms: BAR + 0.5, maxMs: BAR + 2 } };
    expect(relayTimingProblems({ ran: { up: late, down: injected } })).toEqual([
      `ran up p99 ${(BAR + 0.5).toFixed(2)} ms beyond the injected lateness (max ${(BAR + 2).toFixed(1)} ms, 1000 datagrams)`,
    ]);
  });

  it('a sending thread that dropped datagrams for want of queue space makes the run invalid, however punctual the rest', () => {
    const l = link(0.1, 0.1);
    expect(relayTimingProblems({ ran: { ...l, down: { ...l.down, ringFull: 3 } } })).toEqual([
      'ran down dropped 3 datagrams: its sending thread fell behind',
    ]);
  });
});
