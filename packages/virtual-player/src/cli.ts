import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { playVirtual } from './playVirtual.js';
import { isVirtualPlayerError } from './VirtualPlayerError.js';

const HELP = `usage: ethle-vplayer --url URL [--player hls|dash] [--seconds 30] [--scheme e2e] [--pretty]

A virtual receiver: fetches the live HLS playlist or DASH MPD at URL the way hls.js 1.7.4 or
dash.js 5.2.1 do with their defaults, plays out at 1x from the wall clock (no decoding) and prints
the run as JSON in the experiments' results format (startup, stalls, true latency, segments).
--player defaults from the URL (.mpd = dash, else hls).
`;

const fail = (message: string) => {
  process.stderr.write(`ethle-vplayer: ${message}\n`);
  return 2;
};

export async function main(argv: string[]): Promise<number> {
  let v;
  try {
    v = parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        player: { type: 'string' },
        seconds: { type: 'string', default: '30' },
        scheme: { type: 'string', default: 'e2e' },
        pretty: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    return fail(`ERR_VPLAYER_CONFIG: ${(e as Error).message} (--help lists the options)`);
  }
  if (v.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (!v.url) return fail('ERR_VPLAYER_CONFIG: --url is required (--help lists the options)');
  const player = v.player ?? (/\.mpd(\?|$)/.test(v.url) ? 'dash' : 'hls');
  if (player !== 'hls' && player !== 'dash') return fail(`ERR_VPLAYER_CONFIG: --player must be hls or dash, got ${player}`);
  const seconds = Number(v.seconds);
  if (!(seconds > 0 && seconds <= 86_400)) return fail(`ERR_VPLAYER_CONFIG: --seconds must be a number in (0, 86400], got ${v.seconds}`);
  try {
    const run = await playVirtual({ url: v.url, player, seconds, scenario: { scheme: v.scheme } });
    process.stdout.write(`${JSON.stringify(run, null, v.pretty ? 1 : undefined)}\n`);
    return 0;
  } catch (e) {
    if (isVirtualPlayerError(e)) return fail(e.message);
    throw e;
  }
}

// `npx tsx packages/virtual-player/src/cli.ts …` runs it directly (the bin imports main from dist).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main(process.argv.slice(2));
