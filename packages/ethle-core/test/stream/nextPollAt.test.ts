import { describe, expect, it } from 'vitest';
import { nextPollAt, POLL_TIMING, type PollState } from '@ethle/core';

const hls = { pollIntervalMs: 1000, segmentSeconds: 2 };
const at = (p: Partial<PollState>) => nextPollAt({ nowMs: 10_000, lastPollAtMs: 9_900, failures: 0, unchanged: false, view: hls, ...p });

describe('nextPollAt', () => {
  it('polls at the manifest cadence from the last poll, planning in between', () => {
    expect(at({})).toEqual({ atMs: 10_900, planEveryMs: 1000, reason: 'cadence' });
    // DASH $Number$ with a long minimumUpdatePeriod: plan every half segment.
    expect(at({ view: { pollIntervalMs: 30_000, segmentSeconds: 2 } })).toEqual({ atMs: 39_900, planEveryMs: 1000, reason: 'cadence' });
    // Never faster than the floor, whatever the manifest says.
    expect(at({ view: { pollIntervalMs: 5, segmentSeconds: 0.01 } }).atMs).toBe(9_900 + POLL_TIMING.minMs);
    // Before any version: once a second.
    expect(at({ view: undefined })).toEqual({ atMs: 10_900, planEveryMs: 1000, reason: 'cadence' });
  });

  it('a dated manifest: just after the next segment is due, then briefly retried while it is not listed', () => {
    expect(at({ view: { ...hls, nextSegmentDueMs: 10_200 } })).toMatchObject({
      atMs: 10_200 + POLL_TIMING.dueSlackMs,
      reason: 'segment-due',
    });
    // Due later than the cadence: the cadence.
    expect(at({ view: { ...hls, nextSegmentDueMs: 12_000 } })).toMatchObject({ atMs: 10_900, reason: 'cadence' });
    // The last poll came after the due time and did not bring it: retry soon.
    expect(at({ view: { ...hls, nextSegmentDueMs: 9_500 } })).toMatchObject({ atMs: 9_900 + POLL_TIMING.dueRetryMs, reason: 'due-retry' });
    // Long overdue (a stalled origin): the cadence, not a retry storm.
    expect(at({ view: { ...hls, nextSegmentDueMs: 5_000 } })).toMatchObject({ atMs: 10_900, reason: 'cadence' });
  });

  it('LL-HLS with a blocking origin: at once; an unchanged answer falls back to the cadence (never a spin)', () => {
    const ll = { ...hls, lowLatency: { partSeconds: 0.5, partPaths: [], nextPart: { msn: 7, part: 1 } } };
    expect(at({ view: ll })).toEqual({ atMs: 10_000, reason: 'blocking' });
    expect(at({ view: ll, unchanged: true }).reason).toBe('cadence');
    expect(at({ view: ll, failures: 1 }).reason).toBe('backoff');
  });

  it('backs off on failures, doubling, capped at one segment once the stream had a version', () => {
    const delays = [1, 2, 3, 4, 10].map((failures) => at({ failures }).atMs - 10_000);
    expect(delays).toEqual([2000, 2000, 2000, 2000, 2000]);
    const long = { pollIntervalMs: 500, segmentSeconds: 6 };
    expect([1, 2, 3, 4].map((failures) => at({ failures, view: long }).atMs - 10_000)).toEqual([1000, 2000, 4000, 6000]);
    // A stream that never had a manifest: up to maxBackoffMs.
    expect([1, 3, 6, 9].map((failures) => at({ failures, view: undefined }).atMs - 10_000)).toEqual([2000, 8000, 8000, 8000]);
    expect(at({ failures: 1 }).planEveryMs).toBeUndefined();
  });

  it('the due time never lies before the last poll, and never after the cadence (property)', () => {
    for (let due = 0; due < 20_000; due += 37) {
      for (const last of [0, 5_000, 9_900]) {
        const n = at({ lastPollAtMs: last, view: { ...hls, nextSegmentDueMs: due } });
        expect(n.atMs).toBeGreaterThan(last);
        expect(n.atMs).toBeLessThanOrEqual(last + 1000);
      }
    }
  });
});
