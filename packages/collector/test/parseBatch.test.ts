import { describe, expect, it } from 'vitest';
import { parseBatch, streamOfUrl } from '../src/beacon/parseBatch.js';
import { DEFAULT_LIMITS } from '../src/config/CollectorConfig.js';
import { isCollectorError } from '../src/errors/CollectorError.js';
import { batch, ev } from './fixtures.js';

const T = 1_800_000_000_000;
const parse = (o: unknown, limits = DEFAULT_LIMITS) => parseBatch(JSON.stringify(o), T + 50, limits);
function refusal(o: unknown, limits = DEFAULT_LIMITS): { code: string; message: string; field?: unknown } {
  try {
    parseBatch(typeof o === 'string' ? o : JSON.stringify(o), T, limits);
  } catch (e) {
    if (isCollectorError(e)) return { code: e.code, message: e.message, field: e.details['field'] };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('parseBatch', () => {
  it('flattens a probe batch into the rows the stores write', () => {
    const b = parse(
      batch({
        session: 'abc',
        seq: 3,
        sentAt: T,
        target: 'dash',
        meta: { scheme: 'hold-2', cell: '15M-2s' },
        events: [
          ev.segment(T - 5000, 'http://edge.example:8080/live/15M-2s/manifest.mpd', 'manifest', 900),
          ev.startup(T - 4000, 812.5),
          ev.latency(T - 3000, 9.1, 4),
          ev.stall(T - 2500, 700),
          ev.segment(T - 2000, 'http://edge.example:8080/live/15M-2s/v/12.m4s'),
          { type: 'clock', data: { offsetMs: 3, precisionMs: 8, samples: 12 } },
        ],
        report: { startupMs: 812.5 },
      }),
    );
    expect(b).toMatchObject({ session: 'abc', seq: 3, target: 'dash', sentMs: T, receivedMs: T + 50, firstAtMs: T - 5000 });
    // Labels win; what is not labelled comes from the manifest URL; the player is the target.
    expect(b.dims).toEqual({ player: 'dash', stream: '15M-2s', scheme: 'hold-2', edge: 'edge.example:8080' });
    expect(JSON.parse(b.metaJson)).toEqual({ scheme: 'hold-2', cell: '15M-2s' });
    expect(b.startup).toEqual({ startupMs: 812.5, atMs: T - 4000 });
    expect(b.latency).toEqual([{ atMs: T - 3000, trueLatencyS: 9.1, edgeDistanceS: 5.1, holdS: 4 }]);
    expect(b.stalls).toEqual([{ startMs: T - 2500, endMs: T - 1800, durationMs: 700, interruptedBy: null }]);
    expect(b.segments.map((s) => s.kind)).toEqual(['manifest', 'media']);
    expect(b.events.map((e) => e.type)).toEqual(['segment', 'startup', 'latency', 'stallEnd', 'segment', 'clock']);
    // A clock event has no time of its own: it is placed at the batch's send.
    expect(b.events[5]!.atMs).toBe(T);
    expect(JSON.parse(b.reportJson!)).toEqual({ startupMs: 812.5 });
  });

  it("keeps a newer probe's unknown event types as they came", () => {
    const b = parse(batch({ session: 's', seq: 0, sentAt: T, events: [{ type: 'heartbeat', data: { at: T - 10, bufferS: 3 } }] }));
    expect(b.events).toEqual([{ type: 'heartbeat', atMs: T - 10, json: JSON.stringify({ at: T - 10, bufferS: 3 }) }]);
  });

  it('refuses bad input with a code and the first bad field', () => {
    expect(refusal('{"v":1,')).toMatchObject({ code: 'COLLECTOR_ERR_BAD_BATCH', message: 'the body is not JSON' });
    expect(refusal([1, 2])).toMatchObject({ code: 'COLLECTOR_ERR_BAD_BATCH', field: 'batch' });
    expect(refusal({ ...batch({ session: 's', seq: 0, sentAt: T }), v: 2 })).toMatchObject({ code: 'COLLECTOR_ERR_VERSION', field: 'v' });
    expect(refusal(batch({ session: '', seq: 0, sentAt: T }))).toMatchObject({ code: 'COLLECTOR_ERR_BAD_BATCH', field: 'batch.session' });
    expect(refusal(batch({ session: 'a\nb', seq: 0, sentAt: T }))).toMatchObject({
      field: 'batch.session',
      message: expect.stringContaining('control characters'),
    });
    expect(refusal(batch({ session: 's', seq: 1.5, sentAt: T }))).toMatchObject({ field: 'batch.seq' });
    expect(refusal(batch({ session: 's', seq: -1, sentAt: T }))).toMatchObject({ field: 'batch.seq' });
    expect(refusal({ ...batch({ session: 's', seq: 0, sentAt: T }), events: {} })).toMatchObject({ field: 'batch.events' });
    expect(
      refusal(batch({ session: 's', seq: 0, sentAt: T, events: [ev.startup(T, 100), { type: 'latency', data: { at: 'soon' } }] })),
    ).toMatchObject({ field: 'batch.events[1].data.at', message: expect.stringContaining('finite number') });
    expect(refusal(batch({ session: 's', seq: 0, sentAt: T, events: [ev.stall(T, -5)] }))).toMatchObject({
      field: 'batch.events[0].data.durationMs',
    });
    expect(refusal(batch({ session: 's', seq: 0, sentAt: T, events: [ev.latency(T - 3 * 86_400_000, 5)] }))).toMatchObject({
      field: 'batch.events[0].data.at',
      message: expect.stringContaining('from the batch'),
    });
    expect(refusal(batch({ session: 's', seq: 0, sentAt: T, meta: { 'bad key': 'x' } }))).toMatchObject({ field: 'batch.meta' });
    expect(refusal({ ...batch({ session: 's', seq: 0, sentAt: T }), report: 'done' })).toMatchObject({ field: 'batch.report' });
  });

  it('holds each sender to the limits', () => {
    const limits = { ...DEFAULT_LIMITS, maxEventsPerBatch: 2, maxBatchesPerSession: 10, maxEventBytes: 300 };
    expect(
      refusal(batch({ session: 's', seq: 0, sentAt: T, events: [ev.startup(T, 1), ev.startup(T, 1), ev.startup(T, 1)] }), limits),
    ).toMatchObject({ code: 'COLLECTOR_ERR_TOO_MANY_EVENTS' });
    expect(refusal(batch({ session: 's', seq: 10, sentAt: T }), limits)).toMatchObject({ code: 'COLLECTOR_ERR_SESSION_LIMIT' });
    expect(
      refusal(batch({ session: 's', seq: 0, sentAt: T, events: [{ type: 'x', data: { blob: 'y'.repeat(400) } }] }), limits),
    ).toMatchObject({ code: 'COLLECTOR_ERR_BAD_BATCH', field: 'batch.events[0].data' });
    expect(() => parse(batch({ session: 's', seq: 9, sentAt: T, events: [ev.startup(T, 1), ev.startup(T, 1)] }), limits)).not.toThrow();
  });

  it('names the stream of a manifest URL', () => {
    expect(streamOfUrl('http://o/live/50M-2s/ll/index.m3u8')).toBe('50M-2s');
    expect(streamOfUrl('https://cdn.example/channels/news/master.m3u8')).toBe('news');
    expect(streamOfUrl('not a url')).toBe('');
  });
});
