import { describe, expect, it } from 'vitest';
import { httpDate } from '../../src/http/httpDate.js';

describe('httpDate', () => {
  it('names the second the given time is in, up to its last millisecond and from the first of the next', () => {
    const s = Date.UTC(2026, 10, 28, 6, 59, 59);
    expect(httpDate(s)).toBe('Sat, 28 Nov 2026 06:59:59 GMT');
    expect(httpDate(s + 999)).toBe('Sat, 28 Nov 2026 06:59:59 GMT');
    expect(httpDate(s + 1000)).toBe('Sat, 28 Nov 2026 07:00:00 GMT');
    expect(httpDate(s + 1001)).toBe(new Date(s + 1001).toUTCString());
  });

  it('follows a wall clock stepped back', () => {
    const s = Date.UTC(2026, 10, 28, 7, 0, 0);
    expect(httpDate(s)).toBe('Sat, 28 Nov 2026 07:00:00 GMT');
    expect(httpDate(s - 1)).toBe('Sat, 28 Nov 2026 06:59:59 GMT');
    expect(httpDate(s - 3_600_000)).toBe('Sat, 28 Nov 2026 06:00:00 GMT');
  });

  it('reads the clock when given no time', () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const d = Date.parse(httpDate());
    expect(d).toBeGreaterThanOrEqual(before);
    expect(d).toBeLessThanOrEqual(Date.now());
  });
});
