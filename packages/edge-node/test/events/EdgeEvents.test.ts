import { describe, expect, it } from 'vitest';
import { EdgeEvents } from '../../src/events/EdgeEvents.js';

const E = { stream: 'o/live/a.m3u8' };

describe('EdgeEvents', () => {
  it('calls listeners in the order added until each is removed', () => {
    const ev = new EdgeEvents();
    const seen: string[] = [];
    const offA = ev.on('stream-start', () => seen.push('a'));
    ev.on('stream-start', () => seen.push('b'));
    ev.emit('stream-start', E);
    offA();
    offA();
    ev.emit('stream-start', E);
    expect(seen).toEqual(['a', 'b', 'b']);
  });

  it('a listener added or removed during an emit counts from the next one', () => {
    const ev = new EdgeEvents();
    const seen: string[] = [];
    let offB: () => void = () => undefined;
    ev.on('stream-start', () => {
      seen.push('a');
      offB();
      ev.on('stream-start', () => seen.push('c'));
    });
    offB = ev.on('stream-start', () => seen.push('b'));
    ev.emit('stream-start', E);
    expect(seen).toEqual(['a', 'b']);
    ev.emit('stream-start', E);
    expect(seen).toEqual(['a', 'b', 'a', 'c']);
  });

  it('once: the first emit only', () => {
    const ev = new EdgeEvents();
    let n = 0;
    ev.once('stream-idle', () => (n += 1));
    ev.emit('stream-idle', E);
    ev.emit('stream-idle', E);
    expect(n).toBe(1);
  });

  it("a listener's exception is an 'error' event, the other listeners still run, and nothing is thrown", () => {
    const ev = new EdgeEvents();
    const errors: string[] = [];
    let after = 0;
    ev.on('stream-start', () => {
      throw new Error('bad listener');
    });
    ev.on('stream-start', () => (after += 1));
    ev.on('error', (e) => {
      errors.push(`${e.where}: ${e.error.message}`);
      throw new Error('a throwing error listener is not called again');
    });
    expect(() => ev.emit('stream-start', E)).not.toThrow();
    expect(errors).toEqual(['listener of stream-start: bad listener']);
    expect(after).toBe(1);
    // Without an 'error' listener an error event is dropped, not thrown (EventEmitter would throw).
    ev.removeAll();
    expect(() => ev.emit('error', { where: 'x', error: new Error('y') })).not.toThrow();
  });
});
