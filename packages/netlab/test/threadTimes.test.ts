import { describe, expect, it } from 'vitest';
import { parseSchedstat, threadTimes } from '@ethle/netlab';

describe('threadTimes (the kernel scheduler statistics of one thread)', () => {
  it('reads ns on a CPU and ns waiting for one as ms; refuses what is not schedstat', () => {
    expect(parseSchedstat('1500000 250000 42\n')).toEqual({ runMs: 1.5, waitMs: 0.25, runs: 42 });
    expect(parseSchedstat('1500000 250000')).toBeUndefined();
    expect(parseSchedstat('')).toBeUndefined();
    expect(parseSchedstat('a b c')).toBeUndefined();
  });

  it("reads this process's main thread; a thread that does not exist is undefined", () => {
    const t = threadTimes(process.pid, process.pid);
    expect(t?.runMs).toBeGreaterThan(0);
    expect(threadTimes(process.pid, 2 ** 22 + 7)).toBeUndefined();
  });
});
