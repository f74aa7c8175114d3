import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachProbe, ErrorCodes, ProbeError } from '../src/index.js';

/** A media element as far as the probe looks at it. */
class FakeMedia extends EventTarget {
  currentTime = 0;
  paused = false;
  seeking = false;
  readyState = 1;
  ended = false;
  error = null;
  listeners = 0;
  override addEventListener(...a: Parameters<EventTarget['addEventListener']>) {
    this.listeners++;
    super.addEventListener(...a);
  }
  override removeEventListener(...a: Parameters<EventTarget['removeEventListener']>) {
    this.listeners--;
    super.removeEventListener(...a);
  }
}

/** An hls.js instance as far as the probe looks at it: events are fired by the test. */
class FakeHls {
  media: FakeMedia | null = new FakeMedia();
  levels = [{ bitrate: 1_000_000 }, { bitrate: 2_000_000 }];
  latency = 0;
  playingDate: Date | null = null;
  handlers = new Map<string, Set<(e: string, d: unknown) => void>>();
  on(e: string, fn: (e: string, d: unknown) => void) {
    if (!this.handlers.has(e)) this.handlers.set(e, new Set());
    this.handlers.get(e)!.add(fn);
  }
  off(e: string, fn: (e: string, d: unknown) => void) {
    this.handlers.get(e)?.delete(fn);
  }
  loadSource() {}
  trigger(e: string, d: unknown) {
    for (const fn of this.handlers.get(e) ?? []) fn(e, d);
  }
  get listenerCount() {
    return [...this.handlers.values()].reduce((n, s) => n + s.size, 0);
  }
}

const SERVER_AHEAD_MS = 7_000; // the server's clock runs 7 s ahead of this client's
const perfNow = () => performance.now();
const epoch = () => performance.timeOrigin + performance.now();
/** A response's stats and headers as hls.js reports them, the server stamping Date mid-flight. */
function response(bytes: number, headers: Record<string, string> = {}) {
  const start = perfNow() - 40;
  const server = performance.timeOrigin + start + 20 + SERVER_AHEAD_MS;
  return {
    stats: { loading: { start, first: start + 20, end: start + 40 }, loaded: bytes },
    networkDetails: new Headers({ date: new Date(server).toUTCString(), ...headers }),
  };
}

describe('attachProbe', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('rejects what it cannot probe with a coded error', () => {
    expect(() => attachProbe({})).toThrow(ProbeError);
    expect(() => attachProbe(null)).toThrowError(ErrorCodes.BAD_TARGET);
    expect(() => attachProbe(new FakeMedia(), { heartbeatMs: 5 })).toThrowError(/QOE_ERR_BAD_OPTION: heartbeatMs/);
  });

  it('measures an hls.js session into report() and detaches cleanly', () => {
    const hls = new FakeHls();
    const media = hls.media!;
    const probe = attachProbe(hls, { heartbeatMs: 100, syncProbes: 0 });
    const seen: string[] = [];
    for (const e of ['startup', 'stallStart', 'stallEnd', 'latency', 'segment', 'switch', 'clock', 'error'] as const)
      probe.on(e, () => seen.push(e));

    // Manifest with the edge's hold, then segments: each response syncs the clock.
    const pdt0 = epoch() + SERVER_AHEAD_MS - 20_000; // production time of media time 0
    for (let i = 0; i < 6; i++) {
      vi.advanceTimersByTime(337);
      const r = response(2_000, { 'x-ethle-hold-seconds': '4' });
      hls.trigger('hlsLevelLoaded', { details: { live: true, url: 'http://o/live/2M-2s/index.m3u8' }, ...r });
      hls.trigger('hlsFragLoaded', {
        frag: { sn: i, url: `http://o/s${i}.m4s`, type: 'main', duration: 2, level: 0, stats: response(250_000).stats },
        networkDetails: r.networkDetails,
      });
    }
    hls.trigger('hlsLevelSwitched', { level: 1 });
    hls.trigger('hlsError', { details: 'fragLoadError', fatal: false, error: new Error('404') });

    // 1.5 s of loading, then playback at rate 1 from media time 10.
    vi.advanceTimersByTime(1_500 - 6 * 337 + 2_000);
    media.currentTime = 10;
    media.readyState = 4;
    const play = (ms: number) => {
      for (let t = 0; t < ms; t += 50) {
        media.currentTime += 0.05;
        hls.playingDate = new Date(pdt0 + media.currentTime * 1000);
        hls.latency = 6;
        vi.advanceTimersByTime(50);
      }
    };
    play(3_000);
    // A 2.5 s freeze with the player's buffer-stalled signal, then playback again.
    hls.trigger('hlsError', { details: 'bufferStalledError', fatal: false });
    vi.advanceTimersByTime(2_500);
    play(2_000);

    const r = probe.report();
    expect(r.target).toBe('hls');
    expect(r.startupMs).toBeGreaterThan(0);
    expect(r.stalls.count).toBe(1);
    expect(r.stalls.totalMs).toBeGreaterThan(2_400);
    expect(r.stalls.totalMs).toBeLessThan(2_700);
    expect(r.stalls.list[0]!.signals).toContain('hls-buffer-stalled');
    // Clock synced to the server's, not the client's: within the Date header's precision.
    expect(Math.abs(r.clock!.offsetMs - SERVER_AHEAD_MS)).toBeLessThanOrEqual(r.clock!.precisionMs);
    // True latency = server now − program date-time of the playhead; it grew by the stall.
    expect(r.latency.samples).toBeGreaterThan(3);
    expect(r.latency.p50!).toBeGreaterThan(9);
    expect(r.latency.current! - r.latency.p50!).toBeGreaterThan(1);
    expect(r.edgeDistance.current).toBe(6);
    expect(r.holdSeconds).toBe(4);
    expect(r.segments.count).toBe(12);
    const media0 = r.segments.list.find((s) => s.kind === 'media')!;
    expect(media0.throughputBps).toBeCloseTo((250_000 * 8) / 0.04, -3);
    expect(media0.transferBps).toBeCloseTo((250_000 * 8) / 0.02, -3);
    expect(r.switches).toEqual([{ at: expect.any(Number), track: 'main', from: null, to: '1', bitrate: 2_000_000 }]);
    expect(r.errors.map((e) => e.detail)).toEqual(['fragLoadError']);
    expect(new Set(seen)).toEqual(new Set(['startup', 'stallStart', 'stallEnd', 'latency', 'segment', 'switch', 'clock', 'error']));

    probe.destroy();
    expect(hls.listenerCount).toBe(0);
    expect(media.listeners).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    probe.destroy(); // idempotent
  });

  it('LL-HLS parts: each part is timed by its own stats, so the clock stays right', () => {
    const hls = new FakeHls();
    const probe = attachProbe(hls, { heartbeatMs: 100, syncProbes: 0 });
    // 0.5 s parts of 2 s fragments, 7 fragments: hls.js reports every part with the fragment's
    // stats (set by its first part) and the part's own response (Date stamped mid-flight).
    for (let sn = 0; sn < 7; sn++) {
      const fragStats = response(100_000).stats;
      for (let k = 0; k < 4; k++) {
        vi.advanceTimersByTime(500 + 37 * sn + 11 * k); // parts arrive at varied phases of the server's second
        const part = response(100_000);
        hls.trigger('hlsFragLoaded', {
          frag: { sn, url: `http://o/s${sn}.m4s`, type: 'main', duration: 2, level: 0, stats: fragStats },
          part: { url: `http://o/s${sn}.${k}.m4s`, duration: 0.5, stats: part.stats },
          networkDetails: part.networkDetails,
        });
      }
    }
    const r = probe.report();
    expect(Math.abs(r.clock!.offsetMs - SERVER_AHEAD_MS)).toBeLessThanOrEqual(r.clock!.precisionMs);
    expect(r.clock!.precisionMs).toBeLessThan(500);
    // One timing per part, named by the part, its own duration.
    const media = r.segments.list.filter((x) => x.kind === 'media');
    expect(media).toHaveLength(28);
    expect(media[1]!.url).toBe('http://o/s0.1.m4s');
    probe.destroy();
  });

  it('refines the clock with a few manifest GETs timed to bisect the server second, and stops', async () => {
    const requests: number[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      expect(url).toMatch(/^http:\/\/o\/live\/index.m3u8#ethle-sync-\d+$/); // the fragment names its Resource Timing entry
      requests.push(epoch());
      // Fake time stands still during the request: the server stamps it at the instant it was sent.
      return new Response('#EXTM3U', { headers: { date: new Date(epoch() + SERVER_AHEAD_MS).toUTCString() } });
    });
    try {
      const hls = new FakeHls();
      const probe = attachProbe(hls, { heartbeatMs: 100 });
      for (let i = 0; i < 3; i++) {
        await vi.advanceTimersByTimeAsync(2_000); // the player's own cadence: same phase each time
        hls.trigger('hlsLevelLoaded', { details: { live: true, url: 'http://o/live/index.m3u8' }, ...response(900) });
      }
      await vi.advanceTimersByTimeAsync(15_000);
      const c = probe.report().clock!;
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.length).toBeLessThanOrEqual(8);
      expect(c.precisionMs).toBeLessThan(60);
      expect(Math.abs(c.offsetMs - SERVER_AHEAD_MS)).toBeLessThanOrEqual(c.precisionMs);
      probe.destroy();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a throwing listener becomes an error in the report, not a crash', () => {
    const media = new FakeMedia();
    const probe = attachProbe(media, { heartbeatMs: 100 });
    probe.on('startup', () => {
      throw new Error('listener bug');
    });
    vi.advanceTimersByTime(300);
    media.readyState = 4;
    for (let i = 0; i < 5; i++) {
      media.currentTime += 0.1;
      vi.advanceTimersByTime(100);
    }
    const r = probe.report();
    expect(r.startupMs).toBeGreaterThan(0);
    expect(r.errors).toMatchObject([{ code: ErrorCodes.LISTENER_THREW, message: 'listener bug' }]);
    expect(r.latency.samples).toBe(0); // a bare element has no production times
    probe.destroy();
  });
});
