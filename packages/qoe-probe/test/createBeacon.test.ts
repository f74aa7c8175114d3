import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { attachProbe, type BeaconBatch } from '../src/index.js';

class FakeMedia extends EventTarget {
  currentTime = 0;
  paused = false;
  seeking = false;
  readyState = 4;
  ended = false;
  error = null;
}

describe('beacon', () => {
  let sent: { url: string; body: BeaconBatch }[];
  let pagehide: EventTarget;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] });
    sent = [];
    pagehide = new EventTarget();
    vi.stubGlobal('navigator', {
      sendBeacon: (url: string, body: string) => {
        sent.push({ url, body: JSON.parse(body) });
        return true;
      },
    });
    vi.stubGlobal('addEventListener', pagehide.addEventListener.bind(pagehide));
    vi.stubGlobal('removeEventListener', pagehide.removeEventListener.bind(pagehide));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function play(media: FakeMedia, ms: number) {
    for (let t = 0; t < ms; t += 100) {
      media.currentTime += 0.1;
      vi.advanceTimersByTime(100);
    }
  }

  it('batches events on a timer, numbers the batches, and sends the report on pagehide', () => {
    const media = new FakeMedia();
    const probe = attachProbe(media, {
      heartbeatMs: 100,
      sessionId: 'sess-1',
      beacon: { url: 'https://collector.test/qoe', intervalMs: 1000 },
    });
    play(media, 1_500);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    const first = sent[0]!;
    expect(first.url).toBe('https://collector.test/qoe');
    expect(first.body).toMatchObject({ v: 1, session: 'sess-1', seq: 0, target: 'media' });
    expect(first.body.events.map((e) => e.type)).toContain('startup');
    expect(first.body.report).toBeUndefined();
    expect(first.body).not.toHaveProperty('meta');

    pagehide.dispatchEvent(new Event('pagehide'));
    const last = sent.at(-1)!.body;
    expect(last.seq).toBe(sent.length - 1);
    expect(last.report).toMatchObject({ session: 'sess-1', startupMs: expect.any(Number), segments: { count: 0, bytes: 0 } });
    expect(last.report).not.toHaveProperty('latencySeries');
    probe.destroy();
  });

  it('labels every batch with beacon.meta, and refuses labels a collector could not split by', () => {
    const media = new FakeMedia();
    const meta = { stream: '2M-2s', scheme: 'hold-2', edge: 'mec-1', player: 'hls.js', x: 2 };
    const probe = attachProbe(media, { heartbeatMs: 100, beacon: { url: 'https://collector.test/qoe', intervalMs: 500, meta } });
    play(media, 1_200);
    probe.destroy();
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const s of sent) expect(s.body.meta).toEqual(meta);
    for (const bad of [{ 'two words': 'x' }, { ok: { nested: 1 } }, Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i]))])
      expect(() => attachProbe(new FakeMedia(), { beacon: { url: 'https://c.test/', meta: bad as never } })).toThrow(/beacon\.meta/);
  });

  it('flushes early when the batch is full, and a final batch on destroy', () => {
    const media = new FakeMedia();
    const probe = attachProbe(media, { heartbeatMs: 100, beacon: { url: '/c', intervalMs: 60_000, maxEvents: 1 } });
    play(media, 500); // the startup event alone fills a batch
    expect(sent.map((s) => s.body.events.length)).toEqual([1]);
    probe.destroy();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body.report).toBeDefined();
    expect(vi.getTimerCount()).toBe(0);
  });
});
