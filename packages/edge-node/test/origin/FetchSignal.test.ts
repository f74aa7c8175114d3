import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchSignal } from '../../src/origin/FetchSignal.js';

describe('fetchSignal: the deadline counts the origin’s time, not the edge’s own waits', () => {
  let now = 0;
  const clock = () => now;
  const advance = (ms: number) => {
    now += ms;
    vi.advanceTimersByTime(ms);
  };
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    now = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('fires after its running time, with a TimeoutError on the deadline and the combined signal', () => {
    const s = fetchSignal(new AbortController().signal, 1_000, clock);
    advance(999);
    expect(s.any.aborted).toBe(false);
    advance(1);
    expect(s.deadline.aborted).toBe(true);
    expect(s.any.aborted).toBe(true);
    expect((s.deadline.reason as DOMException).name).toBe('TimeoutError');
  });

  it('a paused clock does not run: 600 ms, a 5 s wait for room, then 400 ms more', () => {
    const s = fetchSignal(new AbortController().signal, 1_000, clock);
    advance(600);
    const resume = s.pauseDeadline();
    advance(5_000);
    expect(s.any.aborted).toBe(false);
    resume();
    advance(399);
    expect(s.any.aborted).toBe(false);
    advance(1);
    expect(s.deadline.aborted).toBe(true);
  });

  it('pauses nest (range parts waiting at once): the clock runs again only when the last resumes; a second resume is ignored', () => {
    const s = fetchSignal(new AbortController().signal, 1_000, clock);
    const a = s.pauseDeadline();
    const b = s.pauseDeadline();
    advance(2_000);
    a();
    a();
    advance(2_000);
    expect(s.any.aborted).toBe(false);
    b();
    advance(1_000);
    expect(s.deadline.aborted).toBe(true);
  });

  it('cancel still ends a paused fetch at once', () => {
    const cancel = new AbortController();
    const s = fetchSignal(cancel.signal, 1_000, clock);
    s.pauseDeadline();
    cancel.abort(new Error('receiver gone'));
    expect(s.any.aborted).toBe(true);
    expect(s.deadline.aborted).toBe(false);
  });
});
