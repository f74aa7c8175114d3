import { parseArgs } from 'node:util';
import { startSteeringService } from '../steer/startSteeringService.js';
import { createSteeringServiceConfig, type SteeringServiceConfig } from '../steer/SteeringServiceConfig.js';
import { EXIT_USAGE, type CliIo } from './CliIo.js';

const USAGE = `usage: ethle-edge steer --edges ID=URL,ID=URL… [options]

  --edges LIST            the fleet's edges: pathway id = base URL as players reach it
                          (a bare URL gets the id edge-1, edge-2, …)
  --origin ID=URL         the origin as the last-resort pathway (default: never steer to it)
  --port N                listen port (default 8090; 0 = any)
  --host ADDR             listen address (default 127.0.0.1)
  --ttl S                 steering TTL in seconds (default 5)
  --probe-ms MS           how often each edge's /_ethle/load is read (default min(1000, TTL/2))
  --hysteresis H          a player stays on its edge while its load is within this share of
                          its own above the least loaded edge's (default 0.1: 10 %)
  --min-load-difference D load-share differences up to D move nobody (default 0.01)

Players' steering URI: http://HOST:PORT/steering (give it to the edges as --steering-url).
GET /status: each edge's health and load. SIGTERM/SIGINT: stop.
`;

/** `id=URL` or a bare URL (id edge-N). */
function pathwayArg(v: string, n: number): { id: string; url: string } {
  const eq = v.indexOf('=');
  return eq > 0 && !v.slice(0, eq).includes(':') ? { id: v.slice(0, eq), url: v.slice(eq + 1) } : { id: `edge-${n}`, url: v };
}

/** `ethle-edge steer`: resolves with the exit code once the service has stopped. */
export async function runSteer(argv: string[], io: CliIo, onStarted?: (url: string, close: () => Promise<void>) => void): Promise<number> {
  let config: SteeringServiceConfig;
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        edges: { type: 'string' },
        origin: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        ttl: { type: 'string' },
        'probe-ms': { type: 'string' },
        hysteresis: { type: 'string' },
        'min-load-difference': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout.write(USAGE);
      return 0;
    }
    const n = (flag: string, v: string | undefined): number | undefined => {
      if (v === undefined) return undefined;
      const x = Number(v);
      if (v.trim() === '' || !Number.isFinite(x)) throw new Error(`--${flag}: expected a number, got ${JSON.stringify(v)}`);
      return x;
    };
    const edges = (values.edges ?? '')
      .split(',')
      .filter((s) => s !== '')
      .map((s, i) => pathwayArg(s.trim(), i + 1));
    config = createSteeringServiceConfig({
      edges,
      ...(values.origin === undefined ? {} : { origin: pathwayArg(values.origin, 0) }),
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values.port === undefined ? {} : { port: n('port', values.port)! }),
      ...(values.ttl === undefined ? {} : { ttlSeconds: n('ttl', values.ttl)! }),
      ...(values['probe-ms'] === undefined ? {} : { probeMs: n('probe-ms', values['probe-ms'])! }),
      ...(values.hysteresis === undefined ? {} : { hysteresis: n('hysteresis', values.hysteresis)! }),
      ...(values['min-load-difference'] === undefined
        ? {}
        : { minLoadDifference: n('min-load-difference', values['min-load-difference'])! }),
    });
  } catch (e) {
    io.stderr.write(`ethle-edge steer: ${(e as Error).message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  const running = await startSteeringService(config, (order) => io.stdout.write(`pathway priority: ${order.join(', ')}\n`));
  io.stdout.write(`ethle-edge steer listening on ${running.url} (steering URI ${running.url}/steering)\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      void running.close().then(resolve);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    onStarted?.(running.url, async () => stop());
  });
  return 0;
}
