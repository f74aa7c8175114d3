import { describe, expect, it } from 'vitest';
import { EdgeError } from '../../src/errors/EdgeError.js';
import { ManifestPoller, type LoadedVersion, type ManifestPollerOptions } from '../../src/stream/ManifestPoller.js';
import { FakeClock, settle } from '../helpers/fakeClock.js';

const playlist = (first: number, ll = false) => {
  let t = '#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:2\n';
  if (ll) t += '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.5\n#EXT-X-PART-INF:PART-TARGET=0.5\n';
  t += `#EXT-X-MEDIA-SEQUENCE:${first}\n`;
  for (let n = first; n < first + 4; n++) {
    if (ll) for (let j = 0; j < 4; j++) t += `#EXT-X-PART:DURATION=0.5,URI="${n}.${j}.m4s"\n`;
    t += `#EXTINF:2.0,\n${n}.m4s\n`;
  }
  return t;
};

interface Harness {
  clock: FakeClock;
  poller: ManifestPoller;
  asked: string[];
  versions: LoadedVersion[];
  errors: EdgeError[];
  bugs: Error[];
  plans: number;
  same: number;
}

/** A poller on a fake origin whose answers the test sets (a text, or an error to throw). */
function harness(answer: (path: string) => string | Error, o: Partial<ManifestPollerOptions> = {}): Harness {
  const clock = new FakeClock();
  const h: Harness = {
    clock,
    poller: undefined as unknown as ManifestPoller,
    asked: [],
    versions: [],
    errors: [],
    bugs: [],
    plans: 0,
    same: 0,
  };
  const origin = {
    url: 'http://origin.test',
    upstreamRttMs: undefined as number | undefined,
    absolute: (p: string) => `http://origin.test${p}`,
    fetchText: async (path: string) => {
      h.asked.push(path);
      const a = answer(path);
      if (a instanceof Error) throw a;
      return { text: a, path, headers: {} };
    },
  };
  h.poller = new ManifestPoller({
    path: '/live/index.m3u8',
    origin: origin as unknown as ManifestPollerOptions['origin'],
    edgePathPrefix: '',
    fetchDeadlineMs: 5_000,
    now: () => clock.nowMs,
    timers: clock,
    onVersion: (v) => h.versions.push(v),
    onSame: () => void (h.same += 1),
    onPlan: () => void (h.plans += 1),
    onError: (e) => h.errors.push(e),
    onWarning: () => undefined,
    onBug: (e) => h.bugs.push(e),
    ...o,
  });
  return h;
}

describe('ManifestPoller', () => {
  it('a bug in what a version sets off is reported as a bug, never as the origin being unreachable', async () => {
    const bug = new Error('policy bug');
    const h = harness(() => playlist(10), {
      onVersion: () => {
        throw bug;
      },
    });
    h.poller.poll();
    await settle();
    expect(h.bugs).toEqual([bug]);
    expect(h.errors).toEqual([]);
    expect(h.poller.lastError).toBeUndefined();
    // Planning still follows the poll, and the next poll comes at the playlist's cadence (half a
    // target duration), not after a backoff.
    expect(h.plans).toBe(1);
    expect(h.clock.delays).toEqual([1000]);
  });

  // Issue 36: a throw of the edge's own code on the poll's path was taken for an unreachable (or
  // unparsable) origin, and never reported as a bug.
  it.each(['fetching', 'parsing'])(
    'a throw of the edge’s own code while %s is a bug: reported once, and the poll fails with ERR_EDGE_INTERNAL',
    async (what) => {
      const planted = (): never => {
        throw new TypeError('planted');
      };
      const origin = {
        url: 'http://origin.test',
        upstreamRttMs: undefined,
        // The manifest's absolute URL is made for the core's loader, inside the parse step.
        absolute: (p: string) => (what === 'parsing' ? planted() : `http://origin.test${p}`),
        fetchText: async (path: string) => (what === 'fetching' ? planted() : { text: playlist(10), path, headers: {} }),
      };
      const bugs: string[] = [];
      const h = harness(() => playlist(10), {
        origin: origin as unknown as ManifestPollerOptions['origin'],
        onBug: (e, where) => bugs.push(`${where}: ${e.message}`),
      });
      h.poller.poll();
      await settle();
      expect(bugs).toEqual(['manifest poll: planted']);
      expect(h.errors.map((e) => e.code)).toEqual(['ERR_EDGE_INTERNAL']);
      expect(h.poller.lastError?.code).toBe('ERR_EDGE_INTERNAL');
      expect(h.versions).toEqual([]);
    },
  );

  it('polls at the cadence; the same text again is no new version', async () => {
    let first = 10;
    const h = harness(() => playlist(first));
    h.poller.poll();
    await settle();
    expect(h.versions.map((v) => v.view.firstId)).toEqual([10]);
    await h.clock.next();
    expect(h.same).toBe(1);
    first = 11;
    await h.clock.next();
    expect(h.versions.map((v) => v.view.firstId)).toEqual([10, 11]);
    expect(h.asked).toEqual(['/live/index.m3u8', '/live/index.m3u8', '/live/index.m3u8']);
    expect(h.plans).toBe(3);
    h.poller.close();
    expect(h.clock.pending).toBe(0);
  });

  it('backs off on origin failures (doubling, capped at a segment once there was a version) and recovers at once', async () => {
    let fail = false;
    const h = harness(() => (fail ? new EdgeError('ERR_EDGE_ORIGIN_STATUS', 'origin answered 503') : playlist(10)));
    h.poller.poll();
    await settle();
    fail = true;
    for (let i = 0; i < 3; i++) await h.clock.next();
    expect(h.errors.map((e) => e.code)).toEqual(['ERR_EDGE_ORIGIN_STATUS', 'ERR_EDGE_ORIGIN_STATUS', 'ERR_EDGE_ORIGIN_STATUS']);
    expect(h.poller.lastError?.code).toBe('ERR_EDGE_ORIGIN_STATUS');
    // 1 s cadence, then 2 s (doubled, = one segment: the cap), 2 s, 2 s.
    expect(h.clock.delays).toEqual([1000, 2000, 2000, 2000]);
    fail = false;
    await h.clock.next();
    expect(h.poller.lastError).toBeUndefined();
    expect(h.clock.delays.at(-1)).toBe(1000);
    expect(h.bugs).toEqual([]);
  });

  it('an origin text that cannot be parsed is an error, and never replaces the version', async () => {
    let text = playlist(10);
    const h = harness(() => text);
    h.poller.poll();
    await settle();
    text = '#EXTM3U\n#EXTINF:oops\n';
    await h.clock.next();
    expect(h.errors.map((e) => e.code)).toEqual(['ERR_EDGE_MANIFEST_UNPARSABLE']);
    expect(h.versions).toHaveLength(1);
  });

  // Issue 36, minor: a version that went backwards was passed on to players.
  it('a version that goes backwards is refused (the last stays) until the origin has answered so for acceptBackwardsAfterMs; a forward one in between starts over', async () => {
    let first = 10;
    const h = harness(() => playlist(first), { acceptBackwardsAfterMs: 4_000 });
    h.poller.poll();
    await settle();
    // A lagging node answers once: refused, then the origin goes on.
    first = 5;
    await h.clock.next();
    expect(h.errors.map((e) => e.code)).toEqual(['ERR_EDGE_ORIGIN_INCONSISTENT']);
    expect(h.versions.map((v) => v.view.firstId)).toEqual([10]);
    first = 11;
    await h.clock.next();
    expect(h.versions.map((v) => v.view.firstId)).toEqual([10, 11]);
    // A restart: backwards and staying so; taken once it has lasted 4 s, not before.
    first = 2;
    const since = h.clock.nowMs;
    while (h.versions.length === 2) {
      await h.clock.next();
      if (h.versions.length === 2) expect(h.clock.nowMs - since).toBeLessThan(4_000 + 2_000);
    }
    expect(h.clock.nowMs - since).toBeGreaterThanOrEqual(4_000);
    expect(h.versions.map((v) => v.view.firstId)).toEqual([10, 11, 2]);
    expect(h.poller.lastError).toBeUndefined();
    expect(h.bugs).toEqual([]);
  });

  it('LL-HLS with a blocking origin: one blocking poll for the next part, issued again at once; an unchanged answer falls back to the cadence', async () => {
    let first = 10;
    const h = harness(() => playlist(first, true));
    h.poller.poll();
    await settle();
    expect(h.clock.delays).toEqual([0]);
    first = 11;
    await h.clock.next();
    // The origin lists 10..13 with all parts: the next part is 14.0.
    expect(h.asked[1]).toBe('/live/index.m3u8?_HLS_msn=14&_HLS_part=0');
    expect(h.clock.delays).toEqual([0, 0]);
    await h.clock.next(); // same text: the origin did not block
    expect(h.same).toBe(1);
    expect(h.clock.delays.at(-1)).toBe(1000);
  });

  it('plans between polls when the schedule asks (a DASH $Number$ window moves with the clock)', async () => {
    const mpd = `<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="1970-01-01T00:00:00Z" minimumUpdatePeriod="PT30S" profiles="urn:mpeg:dash:profile:isoff-live:2011"><Period id="p0" start="PT0S"><AdaptationSet mimeType="video/mp4"><SegmentTemplate timescale="1" duration="2" startNumber="1" media="$Number$.m4s" initialization="init.mp4"/><Representation id="v" bandwidth="1000000"/></AdaptationSet></Period></MPD>`;
    const h = harness(() => mpd);
    h.poller.poll();
    await settle();
    expect(h.plans).toBe(1);
    // Every half segment (1 s) a plan, until the 30 s update period is up.
    for (let i = 0; i < 29; i++) await h.clock.next();
    expect(h.plans).toBe(30);
    expect(h.asked).toHaveLength(1);
    await h.clock.next();
    expect(h.asked).toHaveLength(2);
  });

  it('close() stops the timer and aborts the poll under way', async () => {
    let signalSeen: AbortSignal | undefined;
    const clock = new FakeClock();
    const poller = new ManifestPoller({
      path: '/live/index.m3u8',
      origin: {
        url: 'http://origin.test',
        upstreamRttMs: undefined,
        absolute: (p: string) => `http://origin.test${p}`,
        fetchText: (_p: string, signal?: AbortSignal) =>
          new Promise((_resolve, reject) => {
            signalSeen = signal;
            signal?.addEventListener('abort', () => reject(new EdgeError('ERR_EDGE_CLOSED', 'closed')));
          }),
      } as unknown as ManifestPollerOptions['origin'],
      edgePathPrefix: '',
      fetchDeadlineMs: 5_000,
      now: () => clock.nowMs,
      timers: clock,
      onVersion: () => undefined,
      onSame: () => undefined,
      onPlan: () => undefined,
      onError: (e) => {
        throw new Error(`no error expected after close: ${e.code}`);
      },
      onWarning: () => undefined,
      onBug: (e) => {
        throw e;
      },
    });
    const done = poller.poll();
    await settle();
    poller.close();
    await done;
    expect(signalSeen?.aborted).toBe(true);
    expect(clock.pending).toBe(0);
  });
});
