import { describe, expect, it } from 'vitest';
import { createEdgeLagEstimator } from '../src/latency/createEdgeLagEstimator.js';

const SEG = 2_000;
/** A live manifest whose segment k ends production at k·SEG and is listed `lag` ms later. */
const newestListed = (serverMs: number, lag: number) => Math.floor((serverMs - lag) / SEG);

function observe(e: ReturnType<typeof createEdgeLagEstimator>, send: number, rtt: number, lag: number) {
  const k = newestListed(send + rtt / 2, lag); // the server builds the playlist mid-flight
  e.add({ sendMs: send, recvMs: send + rtt, lastEndMs: k * SEG, nextEndMs: (k + 1) * SEG });
}

describe('createEdgeLagEstimator', () => {
  it('a player polling at the segment cadence leaves a segment-wide interval that holds the truth', () => {
    for (const lag of [0, 4_000, 4_730]) {
      const e = createEdgeLagEstimator();
      for (let t = 100_321; t < 130_000; t += SEG) observe(e, t, 10, lag);
      const est = e.estimate()!;
      expect(est.precision).toBeGreaterThan(900);
      expect(Math.abs(est.value - lag)).toBeLessThanOrEqual(est.precision);
    }
  });

  it('fetches timed by nextProbeAt() bisect the lag down to about the round trip', () => {
    for (const lag of [0, 150, 4_000, 4_730, 6_999]) {
      const e = createEdgeLagEstimator();
      let t = 100_321;
      for (let i = 0; i < 4; i++) observe(e, (t += SEG), 10, lag);
      let probes = 0;
      while (e.estimate()!.precision > 20 && probes < 10) {
        const at = e.nextProbeAt(t, 0, SEG)! - 5; // arrive (rtt/2 later) when the segment should appear
        expect(at + 5).toBeGreaterThanOrEqual(t);
        observe(e, at, 10, lag);
        t = at + 10;
        probes++;
      }
      const est = e.estimate()!;
      expect(probes).toBeLessThanOrEqual(8);
      expect(Math.abs(est.value - lag)).toBeLessThanOrEqual(est.precision);
      expect(est.precision).toBeLessThanOrEqual(20);
    }
  });

  it('ignores malformed observations', () => {
    const e = createEdgeLagEstimator();
    e.add({ sendMs: 10, recvMs: 5, lastEndMs: 0, nextEndMs: 2000 });
    e.add({ sendMs: 0, recvMs: 5, lastEndMs: 2000, nextEndMs: 2000 });
    expect(e.estimate()).toBeNull();
  });
});
