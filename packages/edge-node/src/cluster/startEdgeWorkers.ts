import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { pino, type Logger } from 'pino';
import { createEdgeConfig } from '../config/createEdgeConfig.js';
import type { EdgeConfigInput } from '../config/EdgeConfig.js';
import { startEdge, type RunningEdge } from '../startEdge.js';
import { aggregateBox } from './aggregateBox.js';
import { isToPrimary, type ToWorker, type WorkerReport } from './clusterMessages.js';
import { workerConfigs } from './workerConfigs.js';

export interface RunningEdgeWorkers {
  /** Base URL receivers use (the workers' shared port). */
  url: string;
  /** The local parent tier (in this process) that owns the origin flows. */
  parent: RunningEdge;
  /** Workers serving now (listening on the shared port). */
  workers(): number;
  /** The serving workers' process ids (tests signal one). */
  pids(): number[];
  /** Drain the workers (each finishes its transfers within drainMs), then close the parent. */
  close(): Promise<void>;
}

/** Workers restarted after an unexpected exit at most this often: a crash loop does not spin. */
const RESTART_MIN_INTERVAL_MS = 1000;
/** A worker's report for the box's aggregate: this long at most, then it is counted out. */
const REPORT_TIMEOUT_MS = 1000;
/** Beyond drainMs, how long a draining worker may take to close its origin side and exit. */
const EXIT_GRACE_MS = 5000;

/**
 * `ethle-edge serve --workers N`: this (primary) process runs the parent tier on a loopback port
 * — the one owner of the box's origin flows, read-while-writer, never holding — and forks N
 * worker edges that share the public port (node:cluster with the kernel distributing accepts,
 * SCHED_NONE) and take the parent as their origin. The tier code does the rest: each segment is
 * fetched once from the origin by the parent and once from the parent by each worker that serves
 * it, over loopback; x is decided by the workers with the parent's backhaul RTT
 * (X-Ethle-Upstream-Rtt-Ms). Each worker has its own cache and sessions; /metrics and
 * /_ethle/load answer for the whole box (aggregateBox), whichever worker a request reaches.
 *
 * Closing (SIGTERM to this process): each worker is told to drain over the IPC channel — not
 * `worker.kill()`, which disconnects first and has node:cluster close the worker's server
 * itself — and the parent closes only once every worker has exited (they may still be reading
 * from it). A worker that does not exit within drainMs + 5 s is killed.
 */
export async function startEdgeWorkers(
  input: EdgeConfigInput,
  workers: number,
  options: { logger?: Logger } = {},
): Promise<RunningEdgeWorkers> {
  if (!cluster.isPrimary) throw new Error('startEdgeWorkers runs in the primary process');
  const config = createEdgeConfig(input); // the operator's config, validated once (errors name the option)
  const log = options.logger ?? pino({ level: config.logLevel, base: { svc: 'ethle-edge' } });
  const parent = await startEdge(createEdgeConfig(workerConfigs(input, undefined).parent), { logger: log.child({ tier: 'parent' }) });
  const workerInput = workerConfigs(input, parent.url).worker;
  const workerConfig = createEdgeConfig(workerInput);
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
  const serving = new Set<Worker>();
  let closing = false;
  let lastRestart = 0;
  let url: string | undefined;

  // The box's numbers: one round of reports at a time, shared by every worker that asks.
  let nextReport = 1;
  const waiting = new Map<number, (r: WorkerReport) => void>();
  let round: Promise<ReturnType<typeof aggregateBox>> | undefined;
  const boxNumbers = (): Promise<ReturnType<typeof aggregateBox>> => {
    round ??= (async () => {
      const asked = [...serving].filter((w) => w.isConnected());
      const reports = await Promise.all(
        asked.map(
          (w) =>
            new Promise<WorkerReport | undefined>((resolve) => {
              const id = nextReport++;
              const t = setTimeout(() => {
                waiting.delete(id);
                resolve(undefined);
              }, REPORT_TIMEOUT_MS);
              waiting.set(id, (r) => {
                clearTimeout(t);
                waiting.delete(id);
                resolve(r);
              });
              w.send({ ethle: 'report?', id } satisfies ToWorker);
            }),
        ),
      );
      const parentMetrics = (await parent.metrics.registry.getMetricsAsJSON()).map(({ collect: _c, ...x }) => x);
      return aggregateBox({
        reports: reports.filter((r) => r !== undefined),
        running: serving.size,
        parent: parentMetrics,
        egressCapacityMbps: config.egressCapacityMbps ?? null,
        pid: process.pid,
        atMs: Date.now(),
      });
    })().finally(() => (round = undefined));
    return round;
  };
  const onMessage = (w: Worker, m: unknown): void => {
    if (!isToPrimary(m)) return;
    if (m.ethle === 'report') waiting.get(m.id)?.(m.report);
    else if (m.ethle === 'box?') {
      void boxNumbers().then(
        async (b) => {
          if (w.isConnected())
            w.send({
              ethle: 'box',
              id: m.id,
              metrics: await b.registry.metrics(),
              contentType: b.registry.contentType,
              load: { ...b.load, pid: w.process.pid! },
            } satisfies ToWorker);
        },
        (e: unknown) => log.error({ err: e }, "the box's numbers could not be aggregated"),
      );
    }
  };

  const fork = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const w = cluster.fork(env);
      const startedAt = Date.now();
      live.add(w);
      w.on('message', (m: unknown) => onMessage(w, m));
      let listening = false;
      w.once('listening', (a) => {
        listening = true;
        serving.add(w);
        resolve(
          `${input.tls === undefined ? 'http' : 'https'}://${a.address === '0.0.0.0' || a.address === null || a.address === undefined ? '127.0.0.1' : a.address}:${a.port}`,
        );
      });
      w.once('exit', (code, signal) => {
        live.delete(w);
        serving.delete(w);
        // A worker that never listened (a taken port, a bad config): the start fails, no restart.
        if (!listening) return reject(new Error(`worker exited with ${code} before listening`));
        if (closing) return;
        // An exit of a serving worker (a crash, or the operator's SIGTERM to it): said, and a new
        // one, not faster than once a second.
        const wait = Math.max(0, lastRestart + RESTART_MIN_INTERVAL_MS - Date.now());
        log.warn(
          { pid: w.process.pid, code, signal, uptimeMs: Date.now() - startedAt, restartInMs: wait },
          'worker exited; starting another',
        );
        lastRestart = Date.now() + wait;
        setTimeout(() => {
          if (!closing) void fork().catch((e: unknown) => closing || log.error({ err: e }, 'a replacement worker did not start'));
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
  const drainWorker = (w: Worker): Promise<void> =>
    new Promise((resolve) => {
      if (w.isDead()) return resolve();
      const killer = setTimeout(() => {
        log.warn({ pid: w.process.pid, drainMs: workerConfig.drainMs }, 'worker did not exit after its drain; killed');
        w.process.kill('SIGKILL');
      }, workerConfig.drainMs + EXIT_GRACE_MS);
      w.once('exit', () => {
        clearTimeout(killer);
        resolve();
      });
      // A worker still starting has no receivers, and may not listen to the channel yet.
      if (serving.has(w) && w.isConnected()) w.send({ ethle: 'drain' } satisfies ToWorker);
      else w.process.kill('SIGTERM');
    });
  let closed: Promise<void> | undefined;
  return {
    url,
    parent,
    workers: () => serving.size,
    pids: () => [...serving].map((w) => w.process.pid!),
    close() {
      closed ??= (async () => {
        closing = true;
        await Promise.all([...live].map(drainWorker));
        await parent.close();
      })();
      return closed;
    },
  };
}
