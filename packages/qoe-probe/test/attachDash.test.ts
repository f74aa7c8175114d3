import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachProbe } from '../src/index.js';

class FakeMedia extends EventTarget {
  currentTime = 0;
  paused = false;
  seeking = false;
  readyState = 1;
  ended = false;
  error = null;
}

/** A dash.js v5 MediaPlayer as far as the probe looks at it. */
class FakeDash {
  video = new FakeMedia();
  handlers = new Map<string, Set<(e: any) => void>>();
  interceptors = new Set<(r: any) => Promise<any>>();
  ast = 0; // availabilityStartTime as dash.js sees it (edge-shifted), s
  liveLatency = 0;
  on(t: string, fn: (e: any) => void) {
    if (!this.handlers.has(t)) this.handlers.set(t, new Set());
    this.handlers.get(t)!.add(fn);
  }
  off(t: string, fn: (e: any) => void) {
    this.handlers.get(t)?.delete(fn);
  }
  trigger(t: string, e: any) {
    for (const fn of this.handlers.get(t) ?? []) fn(e);
  }
  attachSource() {}
  getVideoElement() {
    return this.video;
  }
  isDynamic() {
    return true;
  }
  timeAsUTC() {
    return this.ast + this.video.currentTime;
  }
  getCurrentLiveLatency() {
    return this.liveLatency;
  }
  addResponseInterceptor(fn: (r: any) => Promise<any>) {
    this.interceptors.add(fn);
  }
  removeResponseInterceptor(fn: (r: any) => Promise<any>) {
    this.interceptors.delete(fn);
  }
  async respond(r: any) {
    for (const fn of this.interceptors) r = await fn(r);
    return r;
  }
  get listenerCount() {
    return [...this.handlers.values()].reduce((n, s) => n + s.size, 0) + this.interceptors.size;
  }
}

const epoch = () => performance.timeOrigin + performance.now();

describe('attachProbe on dash.js', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('adds the hold the edge declares on the MPD to dash.js wall-clock time of the playhead', async () => {
    const dash = new FakeDash();
    const probe = attachProbe(dash, { heartbeatMs: 100, syncProbes: 0 });
    const HOLD = 4;
    // Responses with a Date header: MPDs (with the hold header) and segments, at varied phases.
    for (let i = 0; i < 12; i++) {
      await vi.advanceTimersByTimeAsync(1_137);
      const start = performance.now() - 4;
      const mpd = i % 3 === 0;
      await dash.respond({
        url: mpd ? 'http://edge/live/2M-2s/manifest.mpd' : `http://edge/s${i}.m4s`,
        headers: { Date: new Date(epoch() - 2).toUTCString(), ...(mpd ? { 'X-Ethle-Hold-Seconds': String(HOLD) } : {}) },
        data: mpd ? '<MPD/>' : undefined,
        resourceTiming: { startTime: start, encodedBodySize: 100 },
        request: { customData: { request: { type: mpd ? 'MPD' : 'MediaSegment', firstByteDate: new Date(epoch() - 1) } } },
      });
    }
    // The playhead: dash.js believes it is 3 s behind the live point (AST shifted by the hold).
    dash.video.readyState = 4;
    dash.video.currentTime = 100;
    dash.ast = epoch() / 1000 - 100 - 3;
    dash.liveLatency = 3;
    for (let t = 0; t < 3_000; t += 100) {
      dash.video.currentTime += 0.1;
      await vi.advanceTimersByTimeAsync(100);
    }
    const r = probe.report();
    expect(r.holdSeconds).toBe(HOLD);
    expect(r.clock!.precisionMs).toBeLessThan(500);
    // True latency = dash.js's 3 s + the 4 s hold, within the clock's precision and the 0.1 s
    // steps in which this fake playhead moves.
    expect(Math.abs(r.latency.current! - (3 + HOLD))).toBeLessThanOrEqual(r.clock!.precisionMs / 1000 + 0.1);
    expect(r.edgeDistance.current).toBe(3);
    expect(r.segments.list.filter((s) => s.kind === 'manifest')).toHaveLength(4);
    probe.destroy();
    expect(dash.listenerCount).toBe(0);
  });

  it("bisects the server's second on a busy page whose timers all fire 25 ms late", async () => {
    const LATE_MS = 25;
    const SERVER_AHEAD_MS = 3_000;
    const requests: number[] = [];
    const fakeSetTimeout = globalThis.setTimeout;
    // Every timer of the page fires LATE_MS after it was due (a main thread busy with the player).
    vi.stubGlobal('setTimeout', (fn: () => void, ms?: number) => fakeSetTimeout(fn, (ms ?? 0) + LATE_MS));
    vi.stubGlobal('fetch', async (url: string) => {
      expect(url).toMatch(/^http:\/\/o\/live\/ll\.mpd#ethle-sync-\d+$/);
      requests.push(epoch());
      // Fake time stands still during the request: the server stamps it at the instant it was sent.
      return new Response('<MPD/>', { headers: { date: new Date(epoch() + SERVER_AHEAD_MS).toUTCString() } });
    });
    try {
      const dash = new FakeDash();
      const probe = attachProbe(dash, { heartbeatMs: 100 });
      // The player's own MPD responses, every 2 s: the same phase of the server's second each time.
      for (let i = 0; i < 10; i++) {
        const start = performance.now() - 40;
        await dash.respond({
          url: 'http://o/live/ll.mpd',
          headers: { date: new Date(epoch() - 20 + SERVER_AHEAD_MS).toUTCString() },
          data: '<MPD/>',
          resourceTiming: { startTime: start, encodedBodySize: 100 },
          request: { customData: { request: { type: 'MPD' } } },
        });
        await vi.advanceTimersByTimeAsync(2_000);
      }
      const c = probe.report().clock!;
      // Late GETs still went out while they could cut the bound, and brought it to the ±50 ms a
      // conformance session needs before it counts latency (a GET late by 25 ms lands inside it).
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.length).toBeLessThanOrEqual(24);
      expect(c.precisionMs).toBeLessThanOrEqual(50);
      expect(Math.abs(c.offsetMs - SERVER_AHEAD_MS)).toBeLessThanOrEqual(c.precisionMs);
      probe.destroy();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('keeps bisecting once a slow start is over: a round trip measured under load does not stop the GETs', async () => {
    const SERVER_AHEAD_MS = 3_000;
    let delayMs = 400; // the server's answer takes this long (a loaded box), later 4 ms
    let requests = 0;
    vi.stubGlobal('fetch', async (url: string) => {
      expect(url).toMatch(/^http:\/\/o\/live\/ll\.mpd#ethle-sync-\d+$/);
      requests++;
      await new Promise((r) => setTimeout(r, delayMs / 2));
      const date = new Date(epoch() + SERVER_AHEAD_MS).toUTCString(); // stamped mid-flight
      await new Promise((r) => setTimeout(r, delayMs / 2));
      return new Response('<MPD/>', { headers: { date } });
    });
    try {
      const dash = new FakeDash();
      const probe = attachProbe(dash, { heartbeatMs: 100 });
      // dash.js's own responses, every 2 s: the MPD (answered after delayMs), whose start dash.js
      // takes from the first Resource Timing entry named its URL (the first MPD fetch's), and a
      // low-latency segment, timed to its last byte 1.5 s after the request. Neither shows a
      // short round trip once the load has lifted.
      let mpdStart: number | undefined;
      const respond = (type: string, url: string, tookMs: number) => {
        const start = performance.now() - tookMs;
        if (type === 'MPD') mpdStart ??= start;
        return dash.respond({
          url,
          headers: { date: new Date(epoch() - tookMs / 2 + SERVER_AHEAD_MS).toUTCString() },
          data: type === 'MPD' ? '<MPD/>' : undefined,
          resourceTiming: { startTime: type === 'MPD' ? mpdStart : start, encodedBodySize: 100 },
          request: { customData: { request: { type } } },
        });
      };
      for (let i = 0; i < 20; i++) {
        if (i === 5) delayMs = 4; // the load lifts after 10 s
        await respond('MPD', 'http://o/live/ll.mpd', delayMs);
        await respond('MediaSegment', `http://o/live/ll/dash/v/${i}.m4s`, 1_500);
        await vi.advanceTimersByTimeAsync(2_000);
      }
      const c = probe.report().clock!;
      expect(requests).toBeLessThanOrEqual(24);
      expect(c.precisionMs).toBeLessThanOrEqual(50);
      expect(Math.abs(c.offsetMs - SERVER_AHEAD_MS)).toBeLessThanOrEqual(c.precisionMs);
      probe.destroy();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('reports segments, switches, buffer-empty signals and errors from dash.js events', () => {
    const dash = new FakeDash();
    const probe = attachProbe(dash, { heartbeatMs: 100, syncProbes: 0 });
    const t0 = Date.UTC(2026, 0, 1);
    dash.trigger('fragmentLoadingCompleted', {
      request: {
        url: 'http://o/v1.m4s',
        type: 'MediaSegment',
        mediaType: 'video',
        duration: 2,
        bytesLoaded: 500_000,
        representation: { id: 'v1' },
        startDate: new Date(t0),
        firstByteDate: new Date(t0 + 100),
        endDate: new Date(t0 + 1_100),
      },
    });
    dash.trigger('fragmentLoadingCompleted', {
      request: {
        url: 'http://o/init.mp4',
        type: 'InitializationSegment',
        mediaType: 'video',
        bytesLoaded: 900,
        startDate: new Date(t0),
        firstByteDate: new Date(t0 + 10),
        endDate: new Date(t0 + 20),
      },
    });
    dash.trigger('qualityChangeRendered', { mediaType: 'video', newRepresentation: { id: 'v2', bandwidth: 3_000_000 } });
    dash.trigger('error', { error: { code: 25, message: 'manifest error' } });
    const r = probe.report();
    expect(r.segments.list).toMatchObject([
      {
        kind: 'media',
        track: 'video',
        bytes: 500_000,
        duration: 2,
        rendition: 'v1',
        throughputBps: (500_000 * 8) / 1.1,
        transferBps: 500_000 * 8,
      },
      { kind: 'init', duration: 0 },
    ]);
    expect(r.switches).toMatchObject([{ track: 'video', from: null, to: 'v2', bitrate: 3_000_000 }]);
    expect(r.errors).toMatchObject([{ source: 'dash', detail: '25', message: 'manifest error' }]);
    probe.destroy();
  });
});
