import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { createEdgeConfig } from '../config/createEdgeConfig.js';
import type { EdgeConfigInput } from '../config/EdgeConfig.js';
import { startEdge, type RunningEdge } from '../startEdge.js';
import { workerConfigs } from './workerConfigs.js';

export interface RunningEdgeWorkers {
  /** Base URL receivers use (the workers' shared port). */
  url: string;
  /** The local parent tier (in this process) that owns the origin flows. */
  parent: RunningEdge;
  /** Workers running now. */
  workers(): number;
  /** Drain the workers (SIGTERM), then close the parent. */
  close(): Promise<void>;
}

/** Workers restarted after an unexpected exit at most this often: a crash loop does not spin. */
const RESTART_MIN_INTERVAL_MS = 1000;

/**
 * `ethle-edge serve --workers N`: this (primary) process runs the parent tier on a loopback port
 * — the one owner of the box's origin flows, read-while-writer, never holding — and forks N
 * worker edges that share the public port (node:cluster with the kernel distributing accepts,
 * SCHED_NONE) and take the parent as their origin. The tier code does the rest: each segment is
 * fetched once from the origin by the parent and once from the parent by each worker that serves
 * it, over loopback; x is decided by the workers with the parent's backhaul RTT
 * (X-Ethle-Upstream-Rtt-Ms). Each worker has its own cache, sessions and /metrics.
 */
export async function startEdgeWorkers(input: EdgeConfigInput, workers: number): Promise<RunningEdgeWorkers> {
  if (!cluster.isPrimary) throw new Error('startEdgeWorkers runs in the primary process');
  createEdgeConfig(input); // the operator's config, validated once (errors name the option)
  const parent = await startEdge(createEdgeConfig(workerConfigs(input, undefined).parent));
  const workerInput = workerConfigs(input, parent.url).worker;
  createEdgeConfig(workerInput);
  // The kernel spreads accepts over the workers (SCHED_NONE); round-robin in the primary would
  // put every connection through this process, the parent's.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  const here = fileURLToPath(import.meta.url);
  // From the TypeScript sources (tests), the worker runs under tsx with the sources' condition.
  const fromSource = here.endsWith('.ts');
  cluster.setupPrimary({
    exec: here.replace(/startEdgeWorkers\.(ts|js)$/, `workerMain.$1`),
    args: [],
    execArgv: fromSource ? ['--import', 'tsx', '--conditions', 'source'] : [],
  });
  const env = { ETHLE_WORKER_CONFIG: JSON.stringify(workerInput) };
  const live = new Set<Worker>();
  let closing = false;
  let lastRestart = 0;
  let url = '';
  const fork = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const w = cluster.fork(env);
      live.add(w);
      let listening = false;
      w.once('listening', (a) => {
        listening = true;
        resolve(`${input.tls === undefined ? 'http' : 'https'}://${a.address === '0.0.0.0' || a.address === null || a.address === undefined ? '127.0.0.1' : a.address}:${a.port}`);
      });
      w.once('exit', (code) => {
        live.delete(w);
        // A worker that never listened (a taken port, a bad config): the start fails, no restart.
        if (!listening) return reject(new Error(`worker exited with ${code} before listening`));
        if (closing) return;
        // An unexpected exit of a serving worker: a new one, not faster than once a second.
        const wait = Math.max(0, lastRestart + RESTART_MIN_INTERVAL_MS - Date.now());
        lastRestart = Date.now() + wait;
        setTimeout(() => {
          if (!closing) void fork().catch(() => undefined);
        }, wait).unref();
      });
    });
  try {
    const urls = await Promise.all(Array.from({ length: workers }, fork));
    url = urls[0]!;
  } catch (e) {
    closing = true;
    for (const w of live) w.kill('SIGKILL');
    await parent.close();
    throw e;
  }
  let closed: Promise<void> | undefined;
  return {
    url,
    parent,
    workers: () => live.size,
    close() {
      closed ??= (async () => {
        closing = true;
        await Promise.all([...live].map((w) => new Promise<void>((resolve) => {
          w.once('exit', () => resolve());
          w.kill('SIGTERM');
        })));
        await parent.close();
      })();
      return closed;
    },
  };
}
