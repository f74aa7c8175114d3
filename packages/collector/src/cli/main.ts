import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createCollectorConfig, type CollectorConfigInput } from '../config/createCollectorConfig.js';
import { isCollectorError } from '../errors/CollectorError.js';
import { BEACON_PATH, startCollector, type RunningCollector } from '../http/startCollector.js';
import { openStore } from '../store/openStore.js';

export interface CliIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  env: Record<string, string | undefined>;
}

/** Exit code for bad arguments (a usage error), as most CLIs do. */
export const EXIT_USAGE = 2;

/** Where the DuckDB file goes without --db: the user's state directory (XDG), not the working directory. */
export function defaultDbPath(env: Record<string, string | undefined>): string {
  const state = env['XDG_STATE_HOME'] || join(env['HOME'] || homedir(), '.local', 'state');
  return join(state, 'ethle', 'collector.duckdb');
}

const HELP = `usage: ethle-collector [serve] [options]
       ethle-collector migrate (--db FILE | --postgres URL)

Receives the ETHLE QoE probe's beacons (POST ${BEACON_PATH}), stores them, and answers fleet
queries (GET /v1/fleet, /v1/sessions, /v1/sessions/{id}, /v1/runs, /v1/dimensions, /v1/health).

  --port N                   listen port (default 8082; 0 = any free port)
  --host ADDR                listen address (default 127.0.0.1)
  --db FILE                  the DuckDB file (default: DEFAULT_DB)
  --postgres URL             store in PostgreSQL instead (postgres://user:pass@host:5432/db): a
                             fleet's collectors share one server
  --cors-origin ORIGIN       a page origin allowed to send and read (repeatable; default: any)
  --max-body-bytes N         largest beacon body (default 262144)
  --max-events-per-batch N   events in one batch (default 1000)
  --max-batches-per-session N  (default 20000)
  --max-pending N            batches waiting for the store before 503 (default 20000)
  --commit-interval-ms N     a transaction starts at most every N ms; batches arriving
                             meanwhile join it (default 20; 0: back to back)
  -h, --help                 this help

migrate applies the numbered schema migrations and exits (serve does it too, at start).
`;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  db: { type: 'string' },
  postgres: { type: 'string' },
  'cors-origin': { type: 'string', multiple: true },
  'max-body-bytes': { type: 'string' },
  'max-events-per-batch': { type: 'string' },
  'max-batches-per-session': { type: 'string' },
  'max-pending': { type: 'string' },
  'commit-interval-ms': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function whole(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new Error(`--${flag} must be a whole number, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/**
 * `ethle-collector`: serve (the default) until SIGINT/SIGTERM, then close gracefully — every batch
 * already answered is in the database, those in flight are answered first. A usage mistake is one
 * line on stderr and exit 2. Resolves with the exit code; `signal` lets tests stop a serve.
 */
export async function main(
  argv: string[],
  io: CliIo,
  o: { signal?: AbortSignal; onListening?: (c: RunningCollector) => void } = {},
): Promise<number> {
  const command = argv[0] === 'serve' || argv[0] === 'migrate' ? argv[0] : 'serve';
  const args = argv[0] === command ? argv.slice(1) : argv;
  let input: CollectorConfigInput;
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; args: string[]; strict: true; allowPositionals: true }>>['values'];
  try {
    const parsed = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true });
    values = parsed.values;
    if (parsed.positionals.length) throw new Error(`unexpected argument ${JSON.stringify(parsed.positionals[0])}`);
    if (values.help) {
      io.stdout.write(HELP.replace('DEFAULT_DB', defaultDbPath(io.env)));
      return 0;
    }
    if (values.db !== undefined && values.postgres !== undefined) throw new Error('give --db or --postgres, not both');
    const limits = {
      maxBodyBytes: whole('max-body-bytes', values['max-body-bytes']),
      maxEventsPerBatch: whole('max-events-per-batch', values['max-events-per-batch']),
      maxBatchesPerSession: whole('max-batches-per-session', values['max-batches-per-session']),
      maxPendingBatches: whole('max-pending', values['max-pending']),
      minTransactionIntervalMs: whole('commit-interval-ms', values['commit-interval-ms']),
    };
    input = {
      host: values.host ?? '127.0.0.1',
      port: whole('port', values.port) ?? 8082,
      store: values.postgres !== undefined ? { postgres: values.postgres } : { duckdb: values.db ?? defaultDbPath(io.env) },
      corsOrigins: values['cors-origin'] ?? '*',
      limits: Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
    };
  } catch (e) {
    io.stderr.write(`ethle-collector: ERR_USAGE: ${(e as Error).message.split('\n')[0]} (ethle-collector --help lists the options)\n`);
    return EXIT_USAGE;
  }
  try {
    const config = createCollectorConfig(input);
    const where = config.store.kind === 'duckdb' ? `DuckDB ${config.store.path}` : 'PostgreSQL';
    if (command === 'migrate') {
      const store = await openStore(config.store);
      const v = await store.schemaVersion();
      await store.close();
      io.stdout.write(`ethle-collector: ${where} is at schema ${v}\n`);
      return 0;
    }
    const collector = await startCollector(config, { log: (l) => io.stderr.write(`${l}\n`) });
    io.stdout.write(
      `ethle-collector: listening on ${collector.url} (beacons: POST ${collector.url}${BEACON_PATH}), store ${where}, schema ${await collector.store.schemaVersion()}\n`,
    );
    o.onListening?.(collector);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      o.signal?.addEventListener('abort', stop, { once: true });
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await collector.close();
    io.stdout.write('ethle-collector: closed\n');
    return 0;
  } catch (e) {
    if (isCollectorError(e)) {
      io.stderr.write(`ethle-collector: ${e.code}: ${e.message}\n`);
      return e.code === 'COLLECTOR_ERR_CONFIG' ? EXIT_USAGE : 1;
    }
    const err = e as NodeJS.ErrnoException;
    if (err?.code === 'EADDRINUSE' || err?.code === 'EACCES' || err?.code === 'EADDRNOTAVAIL') {
      io.stderr.write(
        `ethle-collector: ERR_LISTEN: cannot listen on ${input.host}:${input.port} (${err.code}); choose another with --port N or --host\n`,
      );
      return EXIT_USAGE;
    }
    throw e;
  }
}
