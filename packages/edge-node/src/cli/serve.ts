import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEdgeConfig } from '../config/createEdgeConfig.js';
import type { EdgeConfigInput } from '../config/EdgeConfig.js';
import { EdgeError, isEdgeError } from '../errors/EdgeError.js';
import { startEdge, type RunningEdge } from '../startEdge.js';
import { startEdgeWorkers, type RunningEdgeWorkers } from '../cluster/startEdgeWorkers.js';
import { EXIT_USAGE, type CliIo } from './CliIo.js';

const USAGE = `usage: ethle-edge serve --origin URL [options]

  --origin URL            the one origin to serve (paths mirror the origin's)
  --origin-public-url URL the origin as receivers reach it, for redirects (eq. 3), when the
                          edge reaches it on an address they cannot (default: --origin)
  --config FILE           JSON config: every option, and "origins": [{"name","url","publicUrl"?}]
                          origins (then each is served under /{name}/...)
  --port N                listen port (default 8080; 0 = any)
  --host ADDR             listen address (default 127.0.0.1; 0.0.0.0 on a MEC box)
  --hold auto|N           auto (default): x from the model, policy groups; N: every receiver x = N
  --role edge|parent      edge (default, holds) or parent: a tier between edges and the origin
                          that prefetches and fans out but never holds
  --max-hold N            cap on x and on parallel origin connections per stream (default 4)
  --hold-parts N|auto     low-latency streams (LL-HLS parts, LL-DASH chunks): hold the newest N
                          parts instead of whole segments; the edge answers blocking reloads and
                          delta updates itself (0 = LL through the edge, nothing held;
                          auto = N per stream from the part model, rising only)
  --backhaul-rtt-ms MS    use this RTT instead of measuring it
  --lower-hold-after S,N  auto: lower x only after the backhaul has supported x − 1 for S segment
                          periods and N samples in a row (default 4,3)
  --hold-floor F          auto: model (default; x never below the model's) | measured (x may go
                          below it, to 1, once measured backhaul rates support it)
  --segment-start S       auto's model of an origin fetch: learn (default: slow-start until the
                          edge's fetches after idle show the window kept, five in a row)
                          | slow-start (the paper's: the origin restarts idle connections from
                          its initial window, CUBIC/Reno) | warm (it keeps its window across
                          idle: BBR, or tcp_slow_start_after_idle=0); sets the x receivers join at
  --default-ran-mbps M    radio throughput when neither RNI nor CMCD tells (default 100)
  --rni-url URL           ETSI MEC 012 RNI API base (…/rni/v2): MeasRepUe subscription
  --ran-fail-action A     redirect-307 (default) | redirect-302 | pass-through
  --pathway ID --public-url URL   this edge in a fleet: its pathway id and base URL as players
                          reach it (content steering; peers go in the config file)
  --steering-url URL      the fleet's steering service (ethle-edge steer) for the manifests'
                          steering URI, instead of this edge's own /_ethle/steering
  --session-secret-file F the fleet's secret (one line) for portable session tokens
  --egress-capacity-mbps M  this edge's egress for its load report (/_ethle/load)
  --collector URL         a QoE collector (ethle-collector) to report each receiver session's
                          facts to (x held, group, redirect, cache hits; every 5 s), joined there
                          with the player's beacons by the CMCD sid
  --collector-label NAME  this edge's name in those reports (default its host:port): the name
                          players give it in their beacons' meta.edge
  --min-receiver-mbps M   the slowest receiver served (default 1): a segment response waiting
                          on its receiver longer than its length at this rate (at least 10 s)
                          is cut and counted (ethle_receivers_cut_total)
  --max-connections-per-client N  receiver connections one client (IPv4 address, IPv6 /64)
                          may hold open (default 256; more are refused; 0 = no limit, for a
                          proxy or NAT that every receiver comes through)
  --tls-key FILE --tls-cert FILE   serve HTTPS
  --workers N             N worker processes share the port (default 1); this process becomes
                          a parent tier on loopback that owns the origin flows (one origin
                          GET per segment for the box); SIGTERM drains every worker
  --log-level L           fatal|error|warn|info (default)|debug|trace|silent

GET /healthz (ready), GET /metrics (Prometheus). SIGTERM/SIGINT: graceful shutdown.
`;

export interface ServeHooks {
  /** Called once the edge listens (tests use it to stop the server). */
  onStarted?: (edge: RunningEdge) => void;
}

/** `ethle-edge serve`: resolves with the exit code once the edge has shut down. */
export async function runServe(argv: string[], io: CliIo, hooks: ServeHooks = {}): Promise<number> {
  let input: EdgeConfigInput;
  let workersArg: string | undefined;
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        origin: { type: 'string' },
        'origin-public-url': { type: 'string' },
        config: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        hold: { type: 'string' },
        role: { type: 'string' },
        'max-hold': { type: 'string' },
        'hold-parts': { type: 'string' },
        'backhaul-rtt-ms': { type: 'string' },
        'lower-hold-after': { type: 'string' },
        'hold-floor': { type: 'string' },
        'segment-start': { type: 'string' },
        'default-ran-mbps': { type: 'string' },
        'rni-url': { type: 'string' },
        'ran-fail-action': { type: 'string' },
        'tls-key': { type: 'string' },
        'tls-cert': { type: 'string' },
        'log-level': { type: 'string' },
        workers: { type: 'string' },
        pathway: { type: 'string' },
        'public-url': { type: 'string' },
        'steering-url': { type: 'string' },
        'session-secret-file': { type: 'string' },
        'egress-capacity-mbps': { type: 'string' },
        collector: { type: 'string' },
        'collector-label': { type: 'string' },
        'min-receiver-mbps': { type: 'string' },
        'max-connections-per-client': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    workersArg = values.workers;
    input = {};
    if (values.config !== undefined) {
      let text: string;
      try {
        text = readFileSync(values.config, 'utf8');
      } catch (e) {
        throw new EdgeError('ERR_EDGE_CONFIG_FILE', `cannot read ${values.config}: ${(e as Error).message}`);
      }
      try {
        input = JSON.parse(text) as EdgeConfigInput;
      } catch (e) {
        throw new EdgeError('ERR_EDGE_CONFIG_FILE', `${values.config} is not JSON: ${(e as Error).message}`);
      }
    }
    const number = (flag: string, v: string | undefined): number | undefined => {
      if (v === undefined) return undefined;
      const n = Number(v);
      if (v.trim() === '' || !Number.isFinite(n))
        throw new EdgeError('ERR_EDGE_CONFIG_INVALID', `--${flag}: expected a number, got ${JSON.stringify(v)}`);
      return n;
    };
    if (values.origin !== undefined) input = { ...input, origin: values.origin, origins: undefined };
    if (values['origin-public-url'] !== undefined) input = { ...input, originPublicUrl: values['origin-public-url'] };
    if (input.origins === undefined) delete input.origins;
    const set = <K extends keyof EdgeConfigInput>(k: K, v: EdgeConfigInput[K] | undefined): void => {
      if (v !== undefined) input[k] = v;
    };
    set('port', number('port', values.port));
    set('host', values.host);
    set('hold', values.hold);
    set('role', values.role as EdgeConfigInput['role']);
    set('maxHold', number('max-hold', values['max-hold']));
    set('holdParts', values['hold-parts'] === 'auto' ? 'auto' : number('hold-parts', values['hold-parts']));
    set('backhaulRttMs', number('backhaul-rtt-ms', values['backhaul-rtt-ms']));
    if (values['lower-hold-after'] !== undefined) {
      const [segments, samples, ...rest] = values['lower-hold-after'].split(',');
      if (rest.length > 0 || samples === undefined)
        throw new EdgeError(
          'ERR_EDGE_CONFIG_INVALID',
          `--lower-hold-after wants SEGMENTS,SAMPLES (e.g. 4,3), got ${values['lower-hold-after']}`,
        );
      set('lowerHoldAfterSegments', number('lower-hold-after', segments));
      set('lowerHoldAfterSamples', number('lower-hold-after', samples));
    }
    set('holdFloor', values['hold-floor'] as EdgeConfigInput['holdFloor']);
    set('segmentStart', values['segment-start'] as EdgeConfigInput['segmentStart']);
    set('defaultRanMbps', number('default-ran-mbps', values['default-ran-mbps']));
    if (values['rni-url'] !== undefined) input.rni = { ...input.rni, url: values['rni-url'] };
    set('ranFailAction', values['ran-fail-action'] as EdgeConfigInput['ranFailAction']);
    if (values['tls-key'] !== undefined || values['tls-cert'] !== undefined) {
      input.tls = { keyPath: values['tls-key'] ?? '', certPath: values['tls-cert'] ?? '' };
    }
    if (values.pathway !== undefined || values['public-url'] !== undefined || values['steering-url'] !== undefined) {
      const f = input.fleet;
      input.fleet = {
        ...f,
        pathway: values.pathway ?? f?.pathway ?? '',
        publicUrl: values['public-url'] ?? f?.publicUrl ?? '',
        ...(values['steering-url'] === undefined ? {} : { steeringUrl: values['steering-url'] }),
      };
    }
    if (values['session-secret-file'] !== undefined) {
      let secret: string;
      try {
        secret = readFileSync(values['session-secret-file'], 'utf8').trim();
      } catch (e) {
        throw new EdgeError('ERR_EDGE_CONFIG_FILE', `cannot read ${values['session-secret-file']}: ${(e as Error).message}`);
      }
      input.sessionTokens = { ...input.sessionTokens, secret };
    }
    set('egressCapacityMbps', number('egress-capacity-mbps', values['egress-capacity-mbps']));
    if (values.collector !== undefined)
      input.collector = {
        ...input.collector,
        url: values.collector,
        ...(values['collector-label'] === undefined ? {} : { label: values['collector-label'] }),
      };
    set('minReceiverMbps', number('min-receiver-mbps', values['min-receiver-mbps']));
    set('maxConnectionsPerClient', number('max-connections-per-client', values['max-connections-per-client']));
    set('logLevel', (values['log-level'] ?? input.logLevel ?? 'info') as EdgeConfigInput['logLevel']);
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
