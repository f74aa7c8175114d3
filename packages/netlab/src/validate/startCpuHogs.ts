import { spawn } from 'node:child_process';

/**
 * Starts `n` processes that each keep one CPU busy (an empty loop at normal priority, as Chromium
 * decoding or another engineer's build would) and returns a function that ends exactly those.
 * For validating that the links' timing does not depend on CPU load.
 */
export function startCpuHogs(n: number): () => void {
  const hogs = Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for(;;);'], { stdio: 'ignore' }));
  return () => {
    for (const h of hogs) h.kill('SIGKILL');
  };
}
