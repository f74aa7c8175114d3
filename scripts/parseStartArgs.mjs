// `npm start`'s options, validated once: every mistake becomes one StartError with a code and a
// message naming the flag, which scripts/start.mjs prints as one line (exit 2) instead of a stack.
import { parseArgs } from 'node:util';

export const START_HELP = `usage: npm start -- [options]

The live origin, the ETHLE edge in front of it, and the demo pages (side by side, single player,
service worker, dashboard). Ctrl-C stops everything.

  --stream NAME        the stream the pages play (default 2M-2s; with --backhaul 15M-2s, the
                       heaviest Table I stream the emulated radio carries); one of: STREAMS
  --player hls|dash|shaka
                       hls.js (default), dash.js, or Shaka Player on the DASH MPD (a page's
                       ?format=hls has Shaka play the HLS playlist)
  --hold auto|N        the edge's x: N segments for every receiver (default 2, so the demo shows
                       holding; 0..20), or auto: x from the model (on loopback that rightly means 0;
                       the default with --backhaul)
  --port N             the demo pages (default 5173)
  --edge-port N        the ETHLE edge (default 8080)
  --origin-port N      the live origin (default 8081)
  --collector-port N   the QoE collector the players' probes send to and the dashboard reads
                       (default 8082)
                       (ports: 0..65535; 0 = any free port)
  --data-dir DIR       where the collector keeps its DuckDB file (default .ethle-data in the
                       repository; it stays across runs, so the dashboard's fleet view grows)
  --host ADDR          listen address of all three (default 127.0.0.1)
  --backhaul RTT       root only: run the origin behind an emulated backhaul of RTT ms (e.g. 224)
                       and the LTE-A radio in front of the players (a link each), on real TCP
                       (packages/netlab); the pages reach both through the emulated radio: the
                       direct player stalls where the edge player does not. Without it: loopback.
  -h, --help           this help
`;

/** A user mistake on the command line (or a port taken): `code` names the kind. */
export class StartError extends Error {
  /** @param {'ERR_START_USAGE' | 'ERR_START_PORT_IN_USE' | 'ERR_START_LISTEN' | 'ERR_START_NEEDS_ROOT' | 'ERR_START_TESTBED' | 'ERR_START_DATA_IN_USE'} code */
  constructor(code, message) {
    super(message);
    this.name = 'StartError';
    this.code = code;
  }
}

const OPTIONS = {
  host: { type: 'string', default: '127.0.0.1' },
  // No defaults here for stream and hold: they depend on --backhaul (below).
  stream: { type: 'string' },
  player: { type: 'string', default: 'hls' },
  hold: { type: 'string' },
  'origin-port': { type: 'string', default: '8081' },
  'edge-port': { type: 'string', default: '8080' },
  'collector-port': { type: 'string', default: '8082' },
  'data-dir': { type: 'string' },
  port: { type: 'string', default: '5173' },
  backhaul: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
};
/**
 * The stream `--backhaul` plays unless told otherwise (Table I: 3.66 MB segments of 2 s, 14.6
 * Mbit/s). Not 50M-2s (48.8 Mbit/s): the emulated LTE-A radio delivers a 12.2 MB segment at
 * ~33–50 Mbit/s (its 150 ms PDCP discard drops packets of the burst), less than the bitrate, so
 * `--hold auto` redirects the edge player to the origin (eq. 3) once 30 s of measurements average
 * below it, and both players stall on the radio alone — the page would show no edge. 15M-2s fits the radio with headroom, and one
 * E2E flow over 224 ms still needs about a segment's length to fetch a segment.
 */
const BACKHAUL_STREAM = '15M-2s';
/** The edge's own limit on x (createEdgeConfig accepts 0..100; the demo stops at 20). */
const MAX_HOLD = 20;
/** Backhaul RTTs the emulation is meant for (the paper's go to 224 ms; a satellite hop ~600 ms). */
const MAX_BACKHAUL_MS = 2000;

const usage = (message) => new StartError('ERR_START_USAGE', message);

function port(flag, raw) {
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535)
    throw usage(`--${flag} must be a port number 0..65535 (0 = any free port), got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/**
 * @param {string[]} argv the arguments after `npm start --`
 * @param {{ streams: readonly string[] }} offer the streams the origin will serve
 * @returns {{ help: true } | { help: false, host: string, stream: string, player: 'hls' | 'dash' | 'shaka', hold: number | 'auto', backhaulMs: number | undefined, dataDir: string | undefined, ports: { origin: number, edge: number, demo: number, collector: number } }}
 */
export function parseStartArgs(argv, offer) {
  let values, positionals;
  // `--hold -1` is a value, not an option: pass it on as `--hold=-1` so the flag's check explains it.
  const args = argv.flatMap((a, i) =>
    /^-\d/.test(a) && OPTIONS[argv[i - 1]?.slice(2)]?.type === 'string'
      ? []
      : /^--[\w-]+$/.test(a) && /^-\d/.test(argv[i + 1] ?? '')
        ? [`${a}=${argv[i + 1]}`]
        : [a],
  );
  try {
    ({ values, positionals } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true }));
  } catch (e) {
    // node:util's messages are long and assume a programmer; say what the user typed.
    const flag = /'(?:-\w, )?(-{1,2}[\w-]+)/.exec(e.message)?.[1] ?? 'an option';
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw usage(`unknown option ${flag}`);
    if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
      throw usage(/does not take/.test(e.message) ? `${flag} takes no value` : `${flag} needs a value`);
    throw usage(e.message);
  }
  if (values.help) return { help: true };
  if (positionals.length) throw usage(`unexpected argument ${JSON.stringify(positionals[0])} (options start with --)`);
  // On loopback nothing is slow, so the demo shows the mechanism: a light stream held 2 segments.
  // Over the emulated network it shows the benefit: the paper's headline cell (50 Mbit/s in 2 s
  // segments: E2E over 224 ms cannot keep up) with the edge choosing x itself.
  const emulated = values.backhaul !== undefined;
  const { player, host } = values;
  const stream = values.stream ?? (emulated ? BACKHAUL_STREAM : '2M-2s');
  values.hold ??= emulated ? 'auto' : '2';
  if (!offer.streams.includes(stream))
    throw usage(`--stream: the origin offers ${offer.streams.join(', ')}; got ${JSON.stringify(stream)}`);
  if (player !== 'hls' && player !== 'dash' && player !== 'shaka')
    throw usage(`--player must be hls, dash or shaka, got ${JSON.stringify(player)}`);
  let hold;
  if (values.hold === 'auto') hold = 'auto';
  else if (/^\d{1,2}$/.test(values.hold) && Number(values.hold) <= MAX_HOLD) hold = Number(values.hold);
  else throw usage(`--hold must be auto or a whole number of segments 0..${MAX_HOLD}, got ${JSON.stringify(values.hold)}`);
  if (host.trim() === '') throw usage('--host must not be empty');
  if (values['data-dir'] !== undefined && values['data-dir'].trim() === '') throw usage('--data-dir must not be empty');
  let backhaulMs;
  if (values.backhaul !== undefined) {
    if (!/^\d{1,4}$/.test(values.backhaul) || Number(values.backhaul) < 1 || Number(values.backhaul) > MAX_BACKHAUL_MS)
      throw usage(`--backhaul must be a round-trip time in ms, 1..${MAX_BACKHAUL_MS}, got ${JSON.stringify(values.backhaul)}`);
    backhaulMs = Number(values.backhaul);
  }
  return {
    help: false,
    host,
    stream,
    player,
    hold,
    backhaulMs,
    dataDir: values['data-dir'],
    ports: {
      origin: port('origin-port', values['origin-port']),
      edge: port('edge-port', values['edge-port']),
      demo: port('port', values.port),
      collector: port('collector-port', values['collector-port']),
    },
  };
}
