import { existsSync, openSync, closeSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Who holds raised sysctls, and what they were before the first holder raised them. Testbeds run
 * side by side (several workers, other engineers' tests), and a sysctl is one value for the whole
 * machine: the first holder records the original, the last one to leave restores it.
 */
interface HoldState {
  /** Value of each key before the first holder raised it (what the last holder restores). */
  original: Record<string, number>;
  /** What the holders set it to (restored only if nobody changed it since). */
  set: Record<string, number>;
  /** `pid:id` of every testbed holding them. */
  holders: string[];
}

const DIR = existsSync('/run') ? '/run' : tmpdir();
const STATE = join(DIR, 'ethle-netlab-sysctls.json');
const LOCK = `${STATE}.lock`;
/** A lock older than this was left by a process that died holding it (holding takes milliseconds). */
const STALE_LOCK_MS = 10_000;
const sleep = new Int32Array(new SharedArrayBuffer(4));

const procPath = (key: string) => `/proc/sys/${key.replace(/\./g, '/')}`;
const readKey = (key: string) => Number(readFileSync(procPath(key), 'utf8').trim());

function alive(holder: string): boolean {
  const pid = Number(holder.split(':')[0]);
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `f` under the file lock (synchronous: release also runs from a process 'exit' handler). */
function locked<T>(f: () => T): T {
  const end = Date.now() + 5_000;
  for (;;) {
    try {
      const fd = openSync(LOCK, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const age = Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS || Date.now() > end) rmSync(LOCK, { force: true });
      else Atomics.wait(sleep, 0, 0, 5);
    }
  }
  try {
    return f();
  } finally {
    rmSync(LOCK, { force: true });
  }
}

const readState = (): HoldState | undefined => (existsSync(STATE) ? (JSON.parse(readFileSync(STATE, 'utf8')) as HoldState) : undefined);

/**
 * Raises each sysctl to at least the wanted value for as long as `holder` (unique per testbed)
 * holds it, and returns the release. Never lowers one (a machine tuned higher keeps its value).
 * When the last live holder releases, every key the holders raised goes back to its original
 * value, unless someone else changed it meanwhile. Holders whose process died are forgotten, so a
 * crashed run's raise is undone by the next release (or cleanupTestbeds()).
 */
export function holdSysctls(holder: string, wanted: Record<string, number>): () => void {
  locked(() => {
    const state = readState() ?? { original: {}, set: {}, holders: [] };
    state.holders = state.holders.filter(alive);
    for (const [key, value] of Object.entries(wanted)) {
      const now = readKey(key);
      if (!(key in state.original)) state.original[key] = now;
      if (now < value) {
        writeFileSync(procPath(key), String(value));
        state.set[key] = value;
      }
    }
    state.holders.push(`${process.pid}:${holder}`);
    writeFileSync(STATE, JSON.stringify(state));
  });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    releaseSysctls(`${process.pid}:${holder}`);
  };
}

/** Drops a holder (or only dead ones); the last one out restores the originals. */
export function releaseSysctls(holder?: string): void {
  locked(() => {
    const state = readState();
    if (!state) return;
    state.holders = state.holders.filter((h) => h !== holder && alive(h));
    if (state.holders.length > 0) return void writeFileSync(STATE, JSON.stringify(state));
    for (const [key, value] of Object.entries(state.set)) {
      if (readKey(key) === value) writeFileSync(procPath(key), String(state.original[key]));
    }
    rmSync(STATE, { force: true });
  });
}
