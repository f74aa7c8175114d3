import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FetchPace } from '../../src/origin/FetchPace.js';
import { fetchSignal } from '../../src/origin/FetchSignal.js';

describe('FetchPace: what ends a fetch, judged on samples of its running time', () => {
  const limits = { idleMs: 1_000, deadlineMs: 10_000 };

  it('a steady fetch that takes longer than any fixed multiple of its window is never ended before its deadline', () => {
    const p = new FetchPace(limits);
    // 990 kB at 100 kB/s: 9.9 s, ten windows — it finishes within the outer bound.
    for (let ms = 250; ms < 10_000; ms += 250) expect(p.sample(ms, ms * 100, 990_000)).toBeUndefined();
  });

  it('idle: no byte for idleMs, whatever came before — a stalled fetch is idle, not slow', () => {
    const p = new FetchPace(limits);
    expect(p.sample(250, 5_000, 1_000_000)).toBeUndefined();
    expect(p.sample(500, 5_000, 1_000_000)).toBeUndefined();
    // A whole window whose rate (5 kB/s) would not bring the rest in time: but nothing came since 250 ms.
    expect(p.sample(1_000, 5_000, 1_000_000)).toBeUndefined();
    expect(p.sample(1_250, 5_000, 1_000_000)).toBe('idle');
  });

  it('slow: at the last window’s rate the rest would not arrive by the deadline — judged only once a whole window is seen', () => {
    const p = new FetchPace(limits);
    // 200 kB of 1 MB in the first second, then 10 kB/s: the 800 kB left would take 80 s more.
    expect(p.sample(250, 50_000, 1_000_000)).toBeUndefined();
    expect(p.sample(500, 100_000, 1_000_000)).toBeUndefined();
    expect(p.sample(750, 150_000, 1_000_000)).toBeUndefined();
    // The window still holds the fast start: [0, 1 s] 200 kB/s × 9 s ≥ 800 kB; [0.5 s, 1.5 s] 105 kB/s × 8.5 s ≥ 795 kB.
    expect(p.sample(1_000, 200_000, 1_000_000)).toBeUndefined();
    expect(p.sample(1_250, 202_500, 1_000_000)).toBeUndefined();
    expect(p.sample(1_500, 205_000, 1_000_000)).toBeUndefined();
    // [0.75 s, 1.75 s]: 57.5 kB/s × 8.25 s < 792.5 kB.
    expect(p.sample(1_750, 207_500, 1_000_000)).toBe('slow');
    expect(p.recentBytesPerSecond()).toBe(57_500);
  });

  it('slow is never said of an object of unknown size, nor of one whose rest arrives in time at its recent rate', () => {
    const unknown = new FetchPace(limits);
    for (let ms = 250; ms < 10_000; ms += 250) expect(unknown.sample(ms, ms, undefined)).toBeUndefined();
    expect(unknown.sample(10_000, 10_000, undefined)).toBe('deadline');
    // Fast, then slow at the end: the last 5 kB at 1 kB/s arrive well within the deadline.
    const tail = new FetchPace(limits);
    for (let ms = 250; ms < 5_000; ms += 250) expect(tail.sample(ms, Math.min(ms * 1_000, 995_000 + ms), 1_000_000)).toBeUndefined();
  });
});

describe('fetchSignal: one timer, the origin’s time only', () => {
  let now = 0;
  const clock = () => now;
  /** `ms` of time in 50 ms steps, `bytesPerStep` arriving at each. */
  const advance = (ms: number, s?: { received(n: number): void }, bytesPerStep = 0) => {
    for (let t = 0; t < ms; t += 50) {
      const step = Math.min(50, ms - t);
      now += step;
      vi.advanceTimersByTime(step);
      if (bytesPerStep > 0) s?.received(bytesPerStep);
    }
  };
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    now = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('a stalled fetch ends at its idle timeout, with a TimeoutError on the deadline and the combined signal', () => {
    const s = fetchSignal(new AbortController().signal, { idleMs: 1_000, deadlineMs: 10_000 }, clock);
    advance(999);
    expect(s.any.aborted).toBe(false);
    advance(1);
    expect(s.deadline.aborted).toBe(true);
    expect(s.any.aborted).toBe(true);
    expect(s.timedOut).toBe('idle');
    expect((s.deadline.reason as DOMException).name).toBe('TimeoutError');
  });

  it('a fetch receiving steadily runs to the end of its data, past many idle periods; closed, it leaves no timer', () => {
    const s = fetchSignal(new AbortController().signal, { idleMs: 1_000, deadlineMs: 10_000 }, clock);
    s.expect(900_000);
    advance(9_000, s, 5_000);
    expect(s.any.aborted).toBe(false);
    s.close();
    expect(vi.getTimerCount()).toBe(0);
    advance(5_000);
    expect(s.any.aborted).toBe(false);
  });

  it('a trickle is ended by the rate rule, long before the deadline', () => {
    const s = fetchSignal(new AbortController().signal, { idleMs: 1_000, deadlineMs: 60_000 }, clock);
    s.expect(10_000_000);
    advance(1_500, s, 100);
    expect(s.timedOut).toBe('slow');
    expect((s.deadline.reason as Error).message).toMatch(/would not arrive within 60000 ms/);
  });

  it('the outer deadline still bounds a fetch nothing else ends', () => {
    const s = fetchSignal(new AbortController().signal, { idleMs: 1_000, deadlineMs: 3_000 }, clock);
    advance(2_950, s, 100);
    expect(s.any.aborted).toBe(false);
    advance(50, s, 100);
    expect(s.timedOut).toBe('deadline');
  });

  it('a paused clock does not run: 600 ms, a 5 s wait for room, then 400 ms more', () => {
    const s = fetchSignal(new AbortController().signal, { idleMs: 1_000, deadlineMs: 10_000 }, clock);
    advance(600);
    const resume = s.pauseDeadline();
    expect(vi.getTimerCount()).toBe(0);
    advance(5_000);
    expect(s.any.aborted).toBe(false);
    resume();
    advance(399);
    expect(s.any.aborted).toBe(false);
    advance(1);
    expect(s.timedOut).toBe('idle');
  });

  it('pauses nest (range parts waiting at once): the clock runs again only when the last resumes; a second resume is ignored', () => {
    const s = fetchSignal(new AbortController().signal, { idleMs: 1_000, deadlineMs: 10_000 }, clock);
    const a = s.pauseDeadline();
    const b = s.pauseDeadline();
    advance(2_000);
    a();
    a();
    advance(2_000);
    expect(s.any.aborted).toBe(false);
    b();
    advance(1_000);
    expect(s.timedOut).toBe('idle');
  });

  it('cancel still ends a paused fetch at once', () => {
    const cancel = new AbortController();
    const s = fetchSignal(cancel.signal, { idleMs: 1_000, deadlineMs: 10_000 }, clock);
    s.pauseDeadline();
    cancel.abort(new Error('receiver gone'));
    expect(s.any.aborted).toBe(true);
    expect(s.deadline.aborted).toBe(false);
  });
});
