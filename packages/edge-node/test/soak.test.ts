import { describe, expect, it } from 'vitest';
import { judgeSoak, runSoak } from '../bench/runSoak.js';

// The short form of `npm run soak` (issues 14 and 36): the built edge CLI and the built live origin
// each in its own process, two live streams, 40 receivers joining, leaving and abandoning a tenth
// of their transfers part-way, an origin stream paused and resumed. Every goal of the long soak,
// judged the same way: no transfer corrupt (a quarter hashed against the origin's bytes), none cut
// by the edge, each object across the backhaul once, fds back, the abort share really achieved.
// It runs alone (`npm test`'s soak stage, ETHLE_SOAK_TESTS=1): on a box shared with the other test
// files, its receivers' own starvation would read as the edge's slowness.
describe('soak (short)', () => {
  it('40 receivers for 40 s: every goal of the long soak is met', async () => {
    const r = await runSoak({
      seconds: 40,
      receivers: 40,
      streams: ['2M-2s', '15M-2s'],
      faultEverySeconds: 10,
      faultSeconds: 2,
      sampleSeconds: 5,
      // Receivers gone, the streams idle and their origin connections close within seconds.
      streamIdleMs: 5_000,
      originKeepAliveSeconds: 5,
      log: () => undefined,
    });
    expect(r.segmentsReceived).toBeGreaterThan(100);
    const missed = judgeSoak(r, { abortShare: 0.1 }).filter((g) => !g.met);
    expect(missed, JSON.stringify({ ...r, samples: r.samples.length })).toEqual([]);
  }, 120_000);
});
