import { describe, expect, it } from 'vitest';
import { runSoak } from '../bench/runSoak.js';

// The short form of `npm run soak` (issue 14): the built edge CLI in its own process, two live
// streams, receivers joining, leaving and aborting, an origin stream paused and resumed.
describe('soak (short)', () => {
  it('every segment crosses the backhaul once, none is corrupt, fds come back', async () => {
    const r = await runSoak({ seconds: 15, receivers: 20, streams: ['2M-2s', '15M-2s'], faultEverySeconds: 5, faultSeconds: 2, sampleSeconds: 5, log: () => undefined });
    expect(r.segmentsReceived).toBeGreaterThan(20);
    expect(r.corrupt).toBe(0);
    expect(r.originBytesRatio).toBeLessThanOrEqual(1.05);
    expect(r.fdsAfter).toBeLessThanOrEqual(Math.ceil(r.fdsBefore * 1.1) + 2);
  }, 60_000);
});
