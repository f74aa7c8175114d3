import { describe, expect, it } from 'vitest';
import { DepartureRing } from '../src/relay/DepartureRing.js';

const bytes = (n: number, fill: number) => Buffer.alloc(n, fill);

describe('DepartureRing (shaped datagrams from the receiving to the sending thread)', () => {
  it('hands records back in order with their pipe, departure and bytes', () => {
    const ring = new DepartureRing(4096);
    expect(ring.push(2, 10.5, bytes(100, 1))).toBe(true);
    expect(ring.push(0, 11.25, bytes(1, 2))).toBe(true);
    const got: [number, number, Buffer][] = [];
    expect(ring.drain((p, at, b) => got.push([p, at, b]))).toBe(2);
    expect(got.map(([p, at, b]) => [p, at, b.length, b[0]])).toEqual([
      [2, 10.5, 100, 1],
      [0, 11.25, 1, 2],
    ]);
    expect(ring.drain(() => expect.unreachable())).toBe(0);
  });

  it('wraps round its end many times without losing or reordering a record', () => {
    const ring = new DepartureRing(1024);
    let sent = 0;
    let seen = 0;
    for (let round = 0; round < 200; round++) {
      // Sizes that do not divide the ring, so records land at every offset and some must wrap.
      for (let k = 0; k < 3; k++, sent++) expect(ring.push(sent % 7, sent, bytes(37 + ((sent * 53) % 200), sent & 0xff))).toBe(true);
      ring.drain((p, at, b) => {
        expect([p, at, b.length, b[0]]).toEqual([seen % 7, seen, 37 + ((seen * 53) % 200), seen & 0xff]);
        seen += 1;
      });
    }
    expect(seen).toBe(600);
  });

  it('full: refuses the datagram (the caller counts the drop) and takes more once drained', () => {
    const ring = new DepartureRing(1024);
    let accepted = 0;
    while (ring.push(0, accepted, bytes(200, 0))) accepted += 1;
    expect(accepted).toBe(4); // 4 × (16 + 200 → 216) fit in 1024 with a byte kept free; a 5th does not
    expect(ring.drain(() => {})).toBe(4);
    expect(ring.push(0, 0, bytes(200, 0))).toBe(true);
  });

  it('a second view of the same memory (the other thread) sees the same records', () => {
    const a = new DepartureRing(1024);
    const b = new DepartureRing(a.buffer);
    a.push(1, 5, bytes(3, 9));
    const got: number[] = [];
    b.drain((p, at, buf) => got.push(p, at, buf.length));
    expect(got).toEqual([1, 5, 3]);
    expect(a.drain(() => expect.unreachable())).toBe(0);
    expect(b.stopped).toBe(false);
    a.stop();
    expect(b.stopped).toBe(true);
  });
});
