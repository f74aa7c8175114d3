import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { makeRealtime } from '@ethle/netlab';

// chrt -f and prlimit on another process need root (CI is root).
const d = process.getuid?.() === 0 ? describe : describe.skip;

d('makeRealtime', () => {
  it('ends a real-time process that spins without sleeping (RLIMIT_RTTIME), so it cannot starve the box', async () => {
    // Spins only once it is real-time (the parent says so on stdin), so the limit is what ends it;
    // at the lowest RT priority, under the relays of a testbed that may be running beside it.
    const spinner = spawn(process.execPath, ['-e', "process.stdin.once('data', () => { for (;;); })"], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = once(spinner, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    try {
      await makeRealtime(spinner.pid!, { priority: 1, maxSpinMs: 200 });
      spinner.stdin!.write('go\n');
      const [, signal] = await exited;
      expect(['SIGXCPU', 'SIGKILL']).toContain(signal);
    } finally {
      spinner.kill('SIGKILL');
    }
  });

  it('leaves a process that sleeps between bursts of work running', async () => {
    // 2 s of 5 ms busy bursts with sleeps between them: 400 ms on the core in all, more than the
    // limit, but never 200 ms without a sleep.
    const worker = spawn(
      process.execPath,
      [
        '-e',
        "process.stdin.once('data', () => { let n = 0; const t = setInterval(() => { const s = Date.now(); while (Date.now() - s < 5); if (++n === 80) { clearInterval(t); process.exit(0); } }, 25); })",
      ],
      { stdio: ['pipe', 'ignore', 'ignore'] },
    );
    const exited = once(worker, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    try {
      await makeRealtime(worker.pid!, { priority: 1, maxSpinMs: 200 });
      worker.stdin!.write('go\n');
      expect(await exited).toEqual([0, null]);
    } finally {
      worker.kill('SIGKILL');
    }
  });

  it('refuses a pid that does not exist with a coded error', async () => {
    await expect(makeRealtime(2 ** 22 + 7)).rejects.toMatchObject({ code: 'NETLAB_REALTIME' });
  });
});
