import { createEdgeConfig } from '../config/createEdgeConfig.js';
import { EDGE_OPTIONS } from '../config/EDGE_OPTIONS.js';
import type { EdgeConfigInput } from '../config/EdgeConfig.js';
import { isEdgeError } from '../errors/EdgeError.js';
import { startEdge, type RunningEdge } from '../startEdge.js';
import { startEdgeWorkers, type RunningEdgeWorkers } from '../cluster/startEdgeWorkers.js';
import { EXIT_USAGE, type CliIo } from './CliIo.js';
import { parseServeArgs } from './parseServeArgs.js';
import { serveUsage } from './serveUsage.js';

const USAGE = serveUsage(EDGE_OPTIONS);

export interface ServeHooks {
  /** Called once the edge listens (tests use it to stop the server). */
  onStarted?: (edge: RunningEdge) => void;
}

/** `ethle-edge serve`: resolves with the exit code once the edge has shut down. */
export async function runServe(argv: string[], io: CliIo, hooks: ServeHooks = {}): Promise<number> {
  let input: EdgeConfigInput;
  let workersArg: string | undefined;
  try {
    const args = parseServeArgs(argv, EDGE_OPTIONS);
    if (args.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    ({ input, workers: workersArg } = args);
  } catch (e) {
    io.stderr.write(`ethle-edge serve: ${(e as Error).message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }

  let workers = 1;
  if (workersArg !== undefined) {
    workers = Number(workersArg);
    if (!Number.isInteger(workers) || workers < 1 || workers > 256) {
      io.stderr.write(`ethle-edge serve: --workers: an integer 1…256, got ${JSON.stringify(workersArg)}\n\n${USAGE}`);
      return EXIT_USAGE;
    }
  }
  // One process, or (--workers N) this process a parent tier on loopback and N worker edges on
  // the shared port; either way one thing to start, report and close on SIGTERM/SIGINT.
  let running: { url: string; close(): Promise<void> };
  let banner: string;
  try {
    if (workers > 1) {
      const box: RunningEdgeWorkers = await startEdgeWorkers(input, workers);
      running = box;
      banner = `ethle-edge listening on ${box.url} (${workers} workers; parent tier ${box.parent.url})`;
    } else {
      const edge: RunningEdge = await startEdge(createEdgeConfig(input));
      running = edge;
      banner = `ethle-edge listening on ${edge.url}`;
    }
  } catch (e) {
    if (isEdgeError(e) && e.code.startsWith('ERR_EDGE_CONFIG')) {
      io.stderr.write(`ethle-edge serve: ${e.message}\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`ethle-edge serve: cannot start: ${(e as Error).message}\n`);
    return 1;
  }
  io.stdout.write(`${banner}\n`);
  if (workers === 1) hooks.onStarted?.(running as RunningEdge);

  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      void origClose().then(resolve);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    // A programmatic close (tests) ends the command too.
    const origClose = running.close.bind(running);
    running.close = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      return origClose().then(() => resolve());
    };
  });
  return 0;
}
