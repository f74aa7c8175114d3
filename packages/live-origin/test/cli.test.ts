import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli.js';

afterEach(() => vi.restoreAllMocks());

describe('ethle-origin CLI', () => {
  it.each([
    [
      ['--period', '7'],
      /^ethle-origin: periodSeconds must be a whole multiple of every stream's segment length \(2, 4, 10 s\) up to 3600, got 7\n$/,
    ],
    [['--segments-per-file', 'x'], /^ethle-origin: segmentsPerFile must be an integer within \[1, 100\], got NaN\n$/],
    [['--part-seconds', '0.3'], /^ethle-origin: partSeconds must divide 2 s into 1 to 20 parts \(e\.g\. 0\.25, 0\.5, 1\), got 0\.3\n$/],
    [['--keep-alive', 'x'], /^ethle-origin: keepAliveSeconds must be within \[0\.1, 3600\], got NaN\n$/],
  ])('%j: one line on stderr, exit code 2, no stack', async (args, message) => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await main([...args, '--port', '0'])).toBe(2);
    expect(err).toHaveBeenCalledTimes(1);
    expect(String(err.mock.calls[0]![0])).toMatch(message);
  });
});
