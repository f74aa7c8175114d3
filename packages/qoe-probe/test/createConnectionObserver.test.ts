import { afterEach, describe, expect, it } from 'vitest';
import { createConnectionObserver } from '../src/connection/createConnectionObserver.js';
import type { SegmentTiming } from '../src/index.js';

/** A PerformanceObserver the test feeds: entries arrive when `deliver` is called, as a browser queues them. */
class FakeObserver {
  static last: FakeObserver | undefined;
  observed: unknown;
  disconnected = false;
  constructor(readonly cb: (list: { getEntries(): unknown[] }) => void) {
    FakeObserver.last = this;
  }
  observe(o: unknown) {
    this.observed = o;
  }
  disconnect() {
    this.disconnected = true;
  }
  deliver(entries: Array<{ name: string; connectStart: number; connectEnd: number }>) {
    this.cb({ getEntries: () => entries });
  }
}

const real = globalThis.PerformanceObserver;
afterEach(() => {
  globalThis.PerformanceObserver = real;
});

const seg = (url: string): SegmentTiming => ({
  kind: 'media',
  url,
  track: 'main',
  requestStart: 0,
  firstByte: 1,
  lastByte: 2,
  bytes: 1,
  throughputBps: 1,
  transferBps: 1,
  duration: 2,
  rendition: '0',
});

describe('createConnectionObserver (Resource Timing → new or reused connection)', () => {
  it('labels a request whose entry came first, and one whose entry comes after', () => {
    globalThis.PerformanceObserver = FakeObserver as unknown as typeof PerformanceObserver;
    const o = createConnectionObserver()!;
    expect(FakeObserver.last!.observed).toEqual({ type: 'resource', buffered: false });
    // A TCP phase (connectEnd > connectStart): a new connection.
    FakeObserver.last!.deliver([{ name: 'http://o/1.m4s', connectStart: 101, connectEnd: 330 }]);
    const a = seg('http://o/1.m4s');
    o.label(a);
    expect(a.connection).toBe('new');
    // Reported before its entry: labelled when the entry arrives (connect phase of zero length: reused).
    const b = seg('http://o/2.m4s');
    o.label(b);
    expect(b.connection).toBeUndefined();
    FakeObserver.last!.deliver([{ name: 'http://o/2.m4s', connectStart: 2000, connectEnd: 2000 }]);
    expect(b.connection).toBe('reused');
  });

  it('leaves requests unlabelled without Timing-Allow-Origin (connect phase zeroed), and keeps its maps bounded', () => {
    globalThis.PerformanceObserver = FakeObserver as unknown as typeof PerformanceObserver;
    const o = createConnectionObserver()!;
    FakeObserver.last!.deliver([{ name: 'http://x/3.m4s', connectStart: 0, connectEnd: 0 }]);
    const c = seg('http://x/3.m4s');
    o.label(c);
    expect(c.connection).toBeUndefined();
    // 100 entries nobody asks for, then the first of them: forgotten (only the 32 newest are kept).
    FakeObserver.last!.deliver(Array.from({ length: 100 }, (_, i) => ({ name: `http://o/${i}.m4s`, connectStart: 1, connectEnd: 2 })));
    const old = seg('http://o/0.m4s');
    o.label(old);
    expect(old.connection).toBeUndefined();
    const recent = seg('http://o/99.m4s');
    o.label(recent);
    expect(recent.connection).toBe('new');
    o.disconnect();
    expect(FakeObserver.last!.disconnected).toBe(true);
  });

  it('is null where there is no PerformanceObserver', () => {
    globalThis.PerformanceObserver = undefined as unknown as typeof PerformanceObserver;
    expect(createConnectionObserver()).toBeNull();
  });
});
