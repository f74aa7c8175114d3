import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SendDeadlines } from '../../src/http/SendDeadlines.js';

/** A response as the sweep sees it: ended or not, and what libuv still has to write. */
function response(o: { ended: boolean; writeQueueSize?: number }): ServerResponse & { destroyed: boolean } {
  const res = Object.assign(new EventEmitter(), {
    writableEnded: o.ended,
    destroyed: false,
    socket: o.writeQueueSize === undefined ? null : { _handle: { writeQueueSize: o.writeQueueSize } },
    destroy() {
      res.destroyed = true;
      return res;
    },
  });
  return res as unknown as ServerResponse & { destroyed: boolean };
}

describe('SendDeadlines', () => {
  // 1 MB at 1 MB/s: 1 s of waiting on the receiver is allowed.
  const make = () => {
    let now = 0;
    const cuts: number[] = [];
    const d = new SendDeadlines({ minBytesPerSecond: 1e6, floorMs: 100, now: () => now, onCut: (bytes) => cuts.push(bytes) });
    return { d, cuts, advance: (ms: number) => (now += ms) };
  };

  it('cuts and counts a response blocked past its deadline with bytes the kernel has not taken', () => {
    const { d, cuts, advance } = make();
    const res = response({ ended: true, writeQueueSize: 65_536 });
    d.track(res, () => 1e6, true);
    advance(1_000);
    d.sweep();
    expect(res.destroyed).toBe(false);
    advance(1);
    d.sweep();
    expect(res.destroyed).toBe(true);
    expect(cuts).toEqual([1e6]);
    expect(d.size).toBe(0);
  });

  it('leaves alone an ended response whose every byte is with the kernel: its completion is queued, nothing would be cut', () => {
    const { d, cuts, advance } = make();
    const res = response({ ended: true, writeQueueSize: 0 });
    d.track(res, () => 1e6, true);
    advance(5_000);
    d.sweep();
    expect(res.destroyed).toBe(false);
    expect(cuts).toEqual([]);
    res.emit('close');
    expect(d.size).toBe(0);
  });

  it('still cuts a response not yet ended (more bytes to come from the edge), and one whose socket it cannot read', () => {
    const { d, cuts, advance } = make();
    const open = response({ ended: false, writeQueueSize: 0 });
    const unknown = response({ ended: true });
    d.track(open, () => 1e6, true);
    d.track(unknown, () => 1e6, true);
    advance(1_500);
    d.sweep();
    expect(open.destroyed && unknown.destroyed).toBe(true);
    expect(cuts).toHaveLength(2);
  });

  it('counts only the time blocked on the receiver', () => {
    const { d, cuts, advance } = make();
    const res = response({ ended: false, writeQueueSize: 10 });
    const clock = d.track(res, () => 1e6);
    advance(10_000); // waiting on the origin: not the receiver's
    clock.blocked(d.now());
    advance(600);
    clock.unblocked(d.now());
    clock.blocked(d.now());
    advance(300);
    d.sweep();
    expect(cuts).toEqual([]);
    advance(200);
    d.sweep();
    expect(cuts).toEqual([1e6]);
  });
});
