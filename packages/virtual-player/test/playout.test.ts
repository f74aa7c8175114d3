import { describe, expect, it } from 'vitest';
import { createPlayout } from '../src/playout/createPlayout.js';

const T0 = 1_000_000;
const seg = (start: number, end: number, track = 'main', productionStartMs?: number) => ({ track, start, end, productionStartMs });

describe('createPlayout', () => {
  it('starts when the segment at the start position has arrived, and measures startup from the load', () => {
    const p = createPlayout({ tracks: ['main'], startPosition: 10.5, loadStartMs: T0 });
    expect(p.append(seg(12, 14), T0 + 100)).toEqual([]); // not the one at the start position
    expect(p.phase).toBe('loading');
    expect(p.append(seg(10, 12), T0 + 300)).toEqual([{ type: 'startup', at: T0 + 300, startupMs: 300 }]);
    expect(p.phase).toBe('playing');
    expect(p.bufferAhead(T0 + 300)).toBeCloseTo(3.5);
  });

  it('plays at 1x: the buffer drains at wall-clock rate', () => {
    const p = createPlayout({ tracks: ['main'], startPosition: 0, loadStartMs: T0 });
    p.append(seg(0, 2), T0);
    p.append(seg(2, 4), T0);
    expect(p.position(T0 + 1500)).toBeCloseTo(1.5);
    expect(p.advance(T0 + 1500)).toEqual([]);
    expect(p.bufferAhead(T0 + 1500)).toBeCloseTo(2.5);
  });

  it('a stall starts when the playhead reaches the end of the buffer (not when it is noticed) and ends on the next arrival', () => {
    const p = createPlayout({ tracks: ['main'], startPosition: 0, loadStartMs: T0 });
    p.append(seg(0, 2), T0);
    expect(p.advance(T0 + 3000)).toEqual([{ type: 'stallStart', start: T0 + 2000, position: 2 }]);
    expect(p.phase).toBe('stalled');
    expect(p.position(T0 + 4000)).toBe(2);
    const ev = p.append(seg(2, 4), T0 + 4500);
    expect(ev).toEqual([{ type: 'stallEnd', stall: { start: T0 + 2000, end: T0 + 4500, durationMs: 2500, signals: ['buffer-empty'] } }]);
    expect(p.position(T0 + 5000)).toBeCloseTo(2.5);
  });

  it('a segment arriving after the playhead ran dry still records the stall from the moment it ran dry', () => {
    const p = createPlayout({ tracks: ['main'], startPosition: 0, loadStartMs: T0 });
    p.append(seg(0, 2), T0);
    const ev = p.append(seg(2, 4), T0 + 2600); // no advance() in between
    expect(ev.map((e) => e.type)).toEqual(['stallStart', 'stallEnd']);
    expect(ev[1]).toMatchObject({ stall: { start: T0 + 2000, durationMs: 600 } });
  });

  it('needs every track: the slowest one sets the buffer (dash.js video + audio)', () => {
    const p = createPlayout({ tracks: ['video', 'audio'], startPosition: 0, loadStartMs: T0 });
    p.append(seg(0, 2, 'video'), T0 + 10);
    p.append(seg(2, 4, 'video'), T0 + 20);
    expect(p.phase).toBe('loading');
    p.append(seg(0, 2, 'audio'), T0 + 30);
    expect(p.phase).toBe('playing');
    expect(p.bufferAhead(T0 + 30)).toBeCloseTo(2);
    expect(p.bufferAhead(T0 + 30, 'video')).toBeCloseTo(4);
    expect(p.advance(T0 + 2100)).toEqual([{ type: 'stallStart', start: T0 + 2030, position: 2 }]);
  });

  it('plays through a hole up to maxHole, stops at a larger one', () => {
    const p = createPlayout({ tracks: ['main'], startPosition: 0, loadStartMs: T0, maxHole: 0.1 });
    p.append(seg(0, 2), T0);
    p.append(seg(2.05, 4), T0);
    p.append(seg(4.5, 6), T0);
    expect(p.bufferAhead(T0)).toBeCloseTo(4);
  });

  it('maps the playhead to production time through the segment it is in', () => {
    const p = createPlayout({ tracks: ['main'], startPosition: 0, loadStartMs: T0 });
    p.append(seg(0, 2, 'main', 5_000), T0);
    p.append(seg(2, 4, 'main', 7_000), T0);
    expect(p.productionTimeAt(0.5)).toBe(5_500);
    expect(p.productionTimeAt(3)).toBe(8_000);
    expect(p.productionTimeAt(9)).toBeUndefined();
  });
});
