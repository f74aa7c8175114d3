import { describe, expect, it } from 'vitest';
import { nextPathwayHealth } from '../../src/index.js';

describe('nextPathwayHealth', () => {
  it('drops out on one failed probe and comes back after riseAfter successes', () => {
    let h = { ready: true, okStreak: 2 };
    h = nextPathwayHealth(h, false, 2);
    expect(h.ready).toBe(false);
    h = nextPathwayHealth(h, true, 2);
    expect(h.ready).toBe(false);
    h = nextPathwayHealth(h, true, 2);
    expect(h.ready).toBe(true);
    expect(nextPathwayHealth(h, true, 2)).toEqual({ ready: true, okStreak: 2 });
  });
});
