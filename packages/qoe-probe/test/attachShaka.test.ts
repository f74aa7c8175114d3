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

/** A Shaka Player 5.x `shaka.Player` as far as the probe looks at it: events are fired by the test. */
class FakeShaka {
  video: FakeMedia | null = null; // null until attach(), as in Shaka
  type: 'HLS' | 'DASH' = 'DASH';
  playheadDate = 0; // getPlayheadTimeAsDate(), ms
  handlers = new Map<string, Set<(e: any) => void>>();
  addEventListener(t: string, fn: (e: any) => void) {
    if (!this.handlers.has(t)) this.handlers.set(t, new Set());
    this.handlers.get(t)!.add(fn);
  }
  removeEventListener(t: string, fn: (e: any) => void) {
    this.handlers.get(t)?.delete(fn);
  }
  dispatch(t: string, e: any) {
    for (const fn of this.handlers.get(t) ?? []) fn({ type: t, ...e });
  }
  async load() {}
  getMediaElement() {
    return this.video;
  }
  getNetworkingEngine() {
    return {};
  }
  isLive() {
    return true;
  }
  getManifestType() {
    return this.type;
  }
  getPlayheadTimeAsDate() {
    return new Date(this.playheadDate);
  }
  /** A download as Shaka reports it: request times from Date.now(), lower-cased headers, the body. */
  download(
    requestType: number,
    contextType: number,
    uri: string,
    headers: Record<string, string>,
    body = '',
    extra: Record<string, unknown> = {},
  ) {
    this.dispatch('downloadcompleted', {
      requestType,
      request: { requestStartTime: Date.now() - 40, timeToFirstByte: 20 },
      context: { type: contextType, ...extra },
      response: { uri, headers, data: new TextEncoder().encode(body).buffer },
    });
  }
  get listenerCount() {
    return [...this.handlers.values()].reduce((n, s) => n + s.size, 0);
  }
}

const MANIFEST = 0;
const SEGMENT = 1;
const MPD = 4;
const MEDIA_PLAYLIST = 2;
const epoch = () => performance.timeOrigin + performance.now();
/** The server stamps Date mid-flight: 20 ms after the request was sent (40 ms before the event). */
const date = () => new Date(epoch() - 20).toUTCString();

describe('attachProbe on Shaka Player', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance', 'Date'] }));
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('DASH: adds the hold the edge declares on the MPD to the playhead date, and detaches', async () => {
    const shaka = new FakeShaka();
    const probe = attachProbe(shaka, { heartbeatMs: 100, syncProbes: 0 });
    expect(probe.report().target).toBe('shaka');
    const HOLD = 4;
    for (let i = 0; i < 12; i++) {
      await vi.advanceTimersByTimeAsync(1_137); // varied phases of the server's second
      if (i % 3 === 0)
        shaka.download(
          MANIFEST,
          MPD,
          'http://edge/live/2M-2s/manifest.mpd',
          { date: date(), 'x-ethle-hold-seconds': String(HOLD) },
          '<MPD/>',
        );
      else
        shaka.download(SEGMENT, 1, `http://edge/s${i}.m4s`, { date: date() }, 'x'.repeat(1000), {
          stream: { type: 'video', id: 1 },
          segment: { startTime: 2 * i, endTime: 2 * i + 2 },
        });
    }
    shaka.video = new FakeMedia(); // attach()
    shaka.video.readyState = 4;
    shaka.video.currentTime = 100;
    // Shaka's playhead date (edge-shifted AST + position) is 3 s behind now.
    for (let t = 0; t < 3_000; t += 100) {
      shaka.video.currentTime += 0.1;
      shaka.playheadDate = epoch() - 3_000;
      await vi.advanceTimersByTimeAsync(100);
    }
    const r = probe.report();
    expect(r.holdSeconds).toBe(HOLD);
    expect(r.startupMs).toBeGreaterThan(0);
    expect(r.clock!.precisionMs).toBeLessThan(500);
    expect(Math.abs(r.latency.current! - (3 + HOLD))).toBeLessThanOrEqual(r.clock!.precisionMs / 1000 + 0.1);
    expect(Math.abs(r.edgeDistance.current! - 3)).toBeLessThanOrEqual(r.clock!.precisionMs / 1000 + 0.1);
    const manifests = r.segments.list.filter((s) => s.kind === 'manifest');
    expect(manifests).toHaveLength(4);
    // Request times come from Shaka's Date.now() readings, moved onto the probe's clock.
    const seg = r.segments.list.find((s) => s.kind === 'media')!;
    expect(seg).toMatchObject({ track: 'video', rendition: '1', bytes: 1000, duration: 2 });
    expect(seg.firstByte - seg.requestStart).toBeCloseTo(20, 6);
    expect(seg.lastByte - seg.requestStart).toBeCloseTo(40, 6);
    probe.destroy();
    expect(shaka.listenerCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  // Where Shaka's reloads fall within the segment period (and the Date header's second) decides
  // which of the probe's bounds are tight: fixed phases, not the one the process happened to start
  // at. 1,300–1,320 ms puts a reload's server instant just before or after a segment is listed;
  // 20 and 35 ms put a reload's Date stamp on a second's boundary (all 400 phases in 5 ms steps
  // pass; these are the ones that failed while the test itself was wrong).
  it.each([0, 20, 35, 480, 999, 1_290, 1_305, 1_315, 1_330, 1_990])(
    'HLS: measures the playlist lag from the media playlists Shaka and the probe read (reloads at phase %i ms)',
    async (phase) => {
      const LAG = 1_300; // the playlist lists a segment 1.3 s after its production ended
      const SEG = 2_000;
      await vi.advanceTimersByTimeAsync((((phase - (epoch() % SEG)) % SEG) + SEG) % SEG);
      const t0 = Math.round(epoch() / SEG) * SEG - 100 * SEG; // production start of segment 0
      // The playlist as the server wrote it at server time `at`.
      const playlist = (at = epoch()) => {
        const newest = Math.floor((at - LAG - t0) / SEG) - 1;
        const lines = ['#EXTM3U', '#EXT-X-TARGETDURATION:2', `#EXT-X-MEDIA-SEQUENCE:${newest - 4}`];
        for (let n = newest - 4; n <= newest; n++)
          lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(t0 + n * SEG).toISOString()}`, '#EXTINF:2.000,', `${n}.m4s`);
        return lines.join('\n');
      };
      const probes: number[] = [];
      vi.stubGlobal('fetch', async (url: string) => {
        expect(url).toMatch(/^http:\/\/o\/live\/2M-2s\/index.m3u8#ethle-sync-\d+$/);
        probes.push(epoch());
        return new Response(playlist(), { headers: { date: new Date(epoch()).toUTCString() } });
      });
      const shaka = new FakeShaka();
      shaka.type = 'HLS';
      const probe = attachProbe(shaka, { heartbeatMs: 100, latencyIntervalMs: 100 });
      // Every latency sample lies within the clock's bound when it was taken ('clock' is published
      // when the estimate moves by 1 ms or more: hence + 1 ms).
      let clockBoundMs = Infinity;
      const offBound: string[] = [];
      probe.on('clock', (c) => (clockBoundMs = c.precisionMs));
      probe.on('latency', (l) => {
        if (l.trueLatency !== null && Math.abs(l.trueLatency - 9) * 1000 > clockBoundMs + 1)
          offBound.push(`${l.trueLatency} s against ±${clockBoundMs} ms`);
      });
      shaka.video = new FakeMedia();
      shaka.video.readyState = 4;
      // Shaka reloads the playlist every 2 s (always the same phase) while playing 9 s behind now,
      // read at the instant the probe asks: the true latency is 9 s exactly at every sample.
      shaka.getPlayheadTimeAsDate = () => new Date(epoch() - 9_000);
      for (let t = 0; t < 40_000; t += 100) {
        // Written when the server stamped its Date, 20 ms before the response's last byte.
        if (t % 2_000 === 0)
          shaka.download(MANIFEST, MEDIA_PLAYLIST, 'http://o/live/2M-2s/index.m3u8', { date: date() }, playlist(epoch() - 20));
        shaka.video.currentTime += 0.1;
        await vi.advanceTimersByTimeAsync(100);
      }
      const r = probe.report();
      expect(probes.length).toBeGreaterThan(0);
      expect(probes.length).toBeLessThanOrEqual(24); // the default budget (syncProbes) within the first minute
      expect(r.manifestLag!.precisionMs).toBeLessThanOrEqual(100);
      expect(Math.abs(r.manifestLag!.ms - LAG)).toBeLessThanOrEqual(r.manifestLag!.precisionMs + 1);
      expect(offBound).toEqual([]);
      expect(r.latency.current).not.toBeNull();
      // Distance to the playlist's edge = true latency − the lag.
      expect(r.edgeDistance.current!).toBeCloseTo(r.latency.current! - r.manifestLag!.ms / 1000, 6);
      probe.destroy();
    },
  );

  it('reports buffering signals, ABR switches and critical errors from Shaka events', () => {
    const shaka = new FakeShaka();
    shaka.video = new FakeMedia();
    const probe = attachProbe(shaka, { heartbeatMs: 100, syncProbes: 0 });
    shaka.dispatch('adaptation', { oldTrack: { id: 1 }, newTrack: { id: 2, bandwidth: 3_000_000 } });
    shaka.dispatch('error', { detail: { severity: 1, category: 1, code: 1001 } });
    shaka.dispatch('error', { detail: { severity: 2, category: 4, code: 4001, message: 'Shaka Error MANIFEST.DASH_INVALID_XML' } });
    shaka.dispatch('buffering', { buffering: true });
    const r = probe.report();
    expect(r.switches).toMatchObject([{ track: 'main', from: null, to: '2', bitrate: 3_000_000 }]);
    expect(r.errors).toMatchObject([
      { source: 'shaka', detail: '1001', fatal: false },
      { source: 'shaka', detail: '4001', fatal: true, message: 'Shaka Error MANIFEST.DASH_INVALID_XML' },
    ]);
    probe.destroy();
  });
});
