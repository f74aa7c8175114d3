import { describe, expect, it } from 'vitest';
import type { ValidBatch } from '../src/beacon/ValidBatch.js';
import { WatchClock } from '../src/beacon/WatchClock.js';

const b = (session: string, seq: number, sentMs: number, firstAtMs: number) =>
  ({ session, seq, sentMs, firstAtMs, watchMs: null }) as unknown as ValidBatch;

describe('WatchClock', () => {
  it('counts from the previous batch’s send when it came through, else from the batch’s first event', () => {
    const w = new WatchClock();
    const first = b('s', 0, 10_000, 2_000);
    w.stamp(first);
    expect(first.watchMs).toBe(8_000);
    const next = b('s', 1, 15_000, 11_000);
    w.stamp(next);
    expect(next.watchMs).toBe(5_000);
    // A gap (seq 2 lost): from the batch's own first event.
    const afterGap = b('s', 3, 25_000, 21_000);
    w.stamp(afterGap);
    expect(afterGap.watchMs).toBe(4_000);
    // A late duplicate of an old seq does not move the clock back.
    w.stamp(b('s', 1, 15_000, 11_000));
    const after = b('s', 4, 30_000, 26_000);
    w.stamp(after);
    expect(after.watchMs).toBe(5_000);
  });

  it('never counts less than 0 or more than an hour, and forgets the oldest sessions past its bound', () => {
    const w = new WatchClock(2);
    const skew = b('a', 0, 1_000, 5_000);
    w.stamp(skew);
    expect(skew.watchMs).toBe(0);
    const long = b('b', 0, 10_000_000, 0);
    w.stamp(long);
    expect(long.watchMs).toBe(3_600_000);
    w.stamp(b('c', 0, 1_000, 0));
    // 'a' was forgotten: its next batch counts from its own first event.
    const a1 = b('a', 1, 9_000, 8_000);
    w.stamp(a1);
    expect(a1.watchMs).toBe(1_000);
  });
});
