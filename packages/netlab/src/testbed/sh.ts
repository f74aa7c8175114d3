import { execFile, spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const pexec = promisify(execFile);

/** Runs a command, throwing with its stderr on failure. */
export async function sh(cmd: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await pexec(cmd, args, { maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')}: ${err.stderr?.trim() || err.message}`, { cause: e });
  }
}

/**
 * Kills every process left inside a network namespace. `ip netns del` only drops the name: a
 * namespace lives on while a process is in it, and a server spawned there (an origin, an edge, a
 * browser) would outlive a test run that was interrupted.
 */
export function killNsProcesses(ns: string): void {
  const r = spawnSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' });
  for (const pid of (r.stdout ?? '')
    .split('\n')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 1)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** Runs a command inside a network namespace. */
export function inNs(ns: string, cmd: string, args: string[]): Promise<string> {
  return sh('ip', ['netns', 'exec', ns, cmd, ...args]);
}

/** Spawns a long-running command inside a network namespace. */
export function spawnInNs(ns: string, cmd: string, args: string[], opts: SpawnOptions = {}): ChildProcess {
  return spawn('ip', ['netns', 'exec', ns, cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

/**
 * Path of a compiled sibling script to run as its own process. Tests import the sources (src/*.ts),
 * but child processes run the build (dist/*.js): map src to dist.
 */
export function distFile(from: string, rel: string): string {
  const url = new URL(rel, from.replace(/\/src\/(.*)\.ts$/, '/dist/$1.js'));
  return fileURLToPath(url);
}
