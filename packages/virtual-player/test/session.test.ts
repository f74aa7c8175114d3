import { describe, expect, it } from 'vitest';
import type { TimedResponse } from '../src/net/fetchTimed.js';
import { createSession } from '../src/report/createSession.js';

/** A session on a hand-driven clock: stalls are counted as the QoE probe counts them. */
function drive(stallThresholdMs: number) {
  let t = 1_000_000;
  const s = createSession('hls', { sampleIntervalMs: 1000, maxEntries: 100, stallThresholdMs, now: () => t });
  const events: string[] = [];
  s.emitter.on('stallStart', () => events.push(`stallStart@${t}`));
  s.emitter.on('stallEnd', (x) => events.push(`stallEnd ${x.durationMs}`));
  s.startPlayout({ tracks: ['main'], startPosition: 0 }, 6);
  const res = (at: number): TimedResponse => ({
    url: 'http://o/1.m4s',
    status: 200,
    headers: {},
    body: Buffer.alloc(0),
    bytes: 1000,
    requestStart: at - 10,
    firstByte: at - 5,
    lastByte: at,
    connection: 0,
    previousRequests: 0,
  });
  const segment = (n: number) =>
    s.record('media', 'main', res(t), {
      segment: { track: 'main', start: 2 * n, end: 2 * n + 2, productionStartMs: 2000 * n },
      rendition: '0',
    });
  const at = (ms: number) => {
    t = 1_000_000 + ms;
    s.tick();
  };
  return { s, events, segment, at };
}

describe('createSession stall counting', () => {
  it('a dry spell shorter than the threshold is a short stall, not a stall', () => {
    const d = drive(1000);
    d.at(100);
    d.segment(0); // startup at 100 ms, buffer to 2 s of media
    d.at(2100); // ran dry at 2100
    d.at(2400);
    d.segment(1); // 300 ms later
    const r = d.s.report();
    expect(r.stalls.count).toBe(0);
    expect(r.shortStalls).toEqual({ count: 1, totalMs: 300 });
    expect(d.events).toEqual([]);
  });

  it('one at or above the threshold is a stall: stallStart once it has lasted the threshold, then stallEnd with its whole length', () => {
    const d = drive(1000);
    d.at(100);
    d.segment(0);
    d.at(2100);
    d.at(2900);
    expect(d.events).toEqual([]);
    d.at(3100);
    expect(d.events).toEqual([`stallStart@${1_000_000 + 3100}`]);
    d.at(3600);
    d.segment(1);
    const r = d.s.report();
    expect(r.stalls).toMatchObject({ count: 1, totalMs: 1500 });
    expect(r.stalls.list[0]).toMatchObject({ start: 1_000_000 + 2100, end: 1_000_000 + 3600 });
    expect(d.events).toEqual([`stallStart@${1_000_000 + 3100}`, 'stallEnd 1500']);
    expect(r.shortStalls.count).toBe(0);
  });

  it('true latency is the wall clock minus the production time of the frame at the playhead', () => {
    const d = drive(1000);
    d.at(100);
    d.segment(0); // production of media 0 s at t = 0 ms; playhead 0 at 1_000_100
    d.at(1100);
    const last = d.s.report().latencySeries.at(-1)!;
    expect(last.trueLatency).toBeCloseTo((1_001_100 - 1000) / 1000, 6);
  });
});
