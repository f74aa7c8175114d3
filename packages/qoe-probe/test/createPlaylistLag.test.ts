import { describe, expect, it } from 'vitest';
import type { AdapterContext } from '../src/adapters/Adapter.js';
import { createPlaylistLag } from '../src/latency/createPlaylistLag.js';

const SEG = 2_000;
const LAG = 500;

/** Client and server clocks agree; the probe's clock knows it to ±`bound.ms` (none past ±50 ms, as the probe's). */
function context(bound: { ms: number }, rtt = 2): AdapterContext {
  return {
    toServer: (t, side = 0) => (bound.ms <= 50 ? t + side * bound.ms : null),
    rtt: () => rtt,
  };
}

/** A playlist GET sent at `send`, answered `rtt` ms later; the server builds it mid-flight. */
function load(lag: ReturnType<typeof createPlaylistLag>, send: number, rtt: number) {
  const k = Math.floor((send + rtt / 2 - LAG) / SEG);
  lag.loaded({ sn: k, endMs: k * SEG, segMs: SEG }, send, send + rtt);
}

describe('createPlaylistLag', () => {
  it('asks for a GET only while it can cut the lag: the clock’s bound is its floor', () => {
    const bound = { ms: 5 };
    const lag = createPlaylistLag(context(bound));
    // One GET just before segment 50 is listed, one just after: L in (435, 545] ±5, so ±60.
    load(lag, 50 * SEG + LAG - 60, 10);
    load(lag, 50 * SEG + LAG + 30, 10);
    const e = lag.manifestLag()!;
    expect(e.precisionMs).toBeGreaterThan(50);
    expect(Math.abs(e.ms - LAG)).toBeLessThanOrEqual(e.precisionMs);
    const now = 51 * SEG;
    // With the clock at ±5 ms a GET halves L's bound: it is asked for, when the next segment should appear.
    const at = lag.nextProbeAt(now)!;
    expect(at).toBeGreaterThanOrEqual(now);
    expect((at + 1 - e.ms) % SEG).toBeCloseTo(0, 6); // reaching the server (RTT/2 later) as L's midpoint predicts
    // With the clock at ±30 ms every new interval is ±30 ms wider than the server's answer: a GET
    // would leave L at ≥ 3/4 of its bound, so none is asked for and the clock keeps the GET.
    bound.ms = 30;
    expect(lag.nextProbeAt(now)).toBeNull();
    // Nor while the clock is not yet within ±50 ms (no server time to aim by).
    bound.ms = 60;
    expect(lag.nextProbeAt(now)).toBeNull();
  });
});
