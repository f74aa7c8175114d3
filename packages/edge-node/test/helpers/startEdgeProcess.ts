import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EdgeConfigInput } from '../../src/config/EdgeConfig.js';

/**
 * The built edge CLI (`ethle-edge serve --config FILE`) in a process of its own, so a test can do
 * to it what happens to a server: SIGSTOP (it hangs: the kernel still accepts connections, nothing
 * answers), SIGCONT, SIGKILL. Resolves once it listens. `stop()` kills it and removes its config.
 */
export async function startEdgeProcess(
  config: EdgeConfigInput,
): Promise<{ url: string; pid: number; output: () => string; signal(s: NodeJS.Signals): void; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'ethle-edge-'));
  const file = join(dir, 'edge.json');
  writeFileSync(file, JSON.stringify(config));
  const bin = new URL('../../bin/ethle-edge.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [bin, 'serve', '--config', file, '--log-level', config.logLevel ?? 'warn'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setInterval(() => {
      const m = /listening on (\S+)/.exec(out);
      if (m) {
        clearInterval(t);
        resolve(m[1]!);
      }
    }, 20);
    void exited.then(() => {
      clearInterval(t);
      reject(new Error(`the edge exited before listening: ${out}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    output: () => out,
    signal: (s) => void child.kill(s),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
