import { describe, expect, it } from 'vitest';
import { CacheEntry } from '../../src/cache/CacheEntry.js';

function complete(chunks: Buffer[]): CacheEntry {
  const e = new CacheEntry('o/seg.ts', 0);
  e.setHeaders(
    {},
    chunks.reduce((a, c) => a + c.length, 0),
  );
  for (const c of chunks) e.push(c);
  e.end();
  return e;
}

describe('CacheEntry.wholeBody', () => {
  const parts = [Buffer.from('abc'), Buffer.from('defg'), Buffer.from('h')];

  it('joins a complete entry into one buffer once and keeps it in place of the chunks', () => {
    const e = complete(parts);
    const one = e.wholeBody();
    expect(one?.toString()).toBe('abcdefgh');
    expect(e.chunks).toEqual([one]);
    expect(e.bytes).toBe(8);
    expect(e.wholeBody()).toBe(one);
  });

  it('leaves the chunks alone while a streaming reader holds a cursor into them', () => {
    const e = complete(parts);
    const cursor = e.attach();
    e.advance(cursor, 3);
    expect(e.wholeBody()).toBeUndefined();
    expect(e.chunks).toHaveLength(3);
    expect(e.chunkAt(1)?.toString()).toBe('defg');
    e.detach(cursor);
    expect(e.wholeBody()?.toString()).toBe('abcdefgh');
  });

  it('gives nothing for an entry still arriving or failed', () => {
    const e = new CacheEntry('o/seg.ts', 0);
    expect(e.wholeBody()).toBeUndefined();
    e.setHeaders({}, 8);
    e.push(parts[0]!);
    expect(e.wholeBody()).toBeUndefined();
  });
});
