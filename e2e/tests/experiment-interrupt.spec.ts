import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NS_PREFIX, testbedNamespaces } from '@ethle/netlab';
import { expect, test } from '@playwright/test';

// A researcher stops `npm run experiment` with Ctrl-C (SIGINT to its process group): the run's
// testbed — three network namespaces with relays and TUN devices — must not outlive it. Playwright
// may end its worker before the testbed's teardown runs; the experiment runner sweeps what the
// stopped run left and nothing that was there before.
test.skip(process.getuid?.() !== 0, 'needs root for network namespaces');

const root = new URL('../..', import.meta.url).pathname;
const namespaces = () => new Set(testbedNamespaces());

test('Ctrl-C during a run: no namespace of its testbed is left, and one from before is kept', async () => {
  test.setTimeout(120_000);
  // Someone else's namespace (another run's, from before): the sweep must not take it.
  const foreign = `${NS_PREFIX}keep${process.pid}-client`;
  spawnSync('ip', ['netns', 'add', foreign]);
  const out = mkdtempSync(join(tmpdir(), 'ethle-exp-interrupt-'));
  try {
    const before = namespaces();
    expect(before.has(foreign)).toBe(true);
    const p = spawn(
      process.execPath,
      [
        'scripts/experiment.mjs',
        '--receiver',
        'virtual',
        '--rtt',
        '224',
        '--stream',
        '15M-2s',
        '--scheme',
        'e2e',
        '--repeats',
        '1',
        '--duration',
        '60',
        '--out',
        out,
      ],
      { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let log = '';
    p.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    p.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    const exited = new Promise<number | null>((r) => p.once('exit', (code) => r(code)));
    // The run's testbed is up once its three namespaces exist.
    await expect.poll(() => [...namespaces()].filter((n) => !before.has(n)).length, { timeout: 60_000 }).toBe(3);
    process.kill(-p.pid!, 'SIGINT');
    const code = await exited;
    expect(code, log).not.toBe(0);
    const after = namespaces();
    expect(
      [...after].filter((n) => !before.has(n)),
      log,
    ).toEqual([]);
    expect(after.has(foreign)).toBe(true);
  } finally {
    spawnSync('ip', ['netns', 'del', foreign]);
    rmSync(out, { recursive: true, force: true });
  }
});
