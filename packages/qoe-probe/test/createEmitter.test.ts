import { describe, expect, it } from 'vitest';
import { createEmitter } from '../src/createEmitter.js';
import { ErrorCodes, Events, type ErrorData } from '../src/index.js';

describe('createEmitter', () => {
  it('turns a listener exception into an error event and still runs the other listeners', () => {
    const e = createEmitter(() => 42);
    const seen: number[] = [];
    const errors: ErrorData[] = [];
    e.on(Events.STARTUP, () => {
      throw new Error('boom');
    });
    e.on(Events.STARTUP, (d) => seen.push(d.startupMs));
    e.on(Events.ERROR, (d) => errors.push(d));
    expect(() => e.emit('startup', { startupMs: 1234, at: 1 })).not.toThrow();
    expect(seen).toEqual([1234]);
    expect(errors).toEqual([
      { at: 42, code: ErrorCodes.LISTENER_THREW, source: 'listener', detail: 'startup', message: 'boom', fatal: false },
    ]);
  });

  it('does not loop when an error listener throws', () => {
    const e = createEmitter(() => 0);
    let calls = 0;
    e.on('error', () => {
      calls++;
      throw new Error('again');
    });
    e.on('latency', () => {
      throw new Error('first');
    });
    expect(() => e.emit('latency', { at: 0, trueLatency: 1, edgeDistance: 1, holdSeconds: 0 })).not.toThrow();
    expect(calls).toBe(1);
  });

  it('off() and clear() remove listeners', () => {
    const e = createEmitter(() => 0);
    let n = 0;
    const fn = () => n++;
    e.on('clock', fn);
    e.emit('clock', { offsetMs: 0, precisionMs: 1, samples: 1 });
    e.off('clock', fn);
    e.emit('clock', { offsetMs: 0, precisionMs: 1, samples: 1 });
    e.on('clock', fn);
    e.clear();
    e.emit('clock', { offsetMs: 0, precisionMs: 1, samples: 1 });
    expect(n).toBe(1);
  });
});
