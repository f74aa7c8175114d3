import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { VirtualPlayerConfigInput } from './config/VirtualPlayerConfig.js';
import { createVirtualPlayerConfig } from './config/createVirtualPlayerConfig.js';
import { playReceivers } from './playReceivers.js';
import { playVirtual } from './playVirtual.js';
import { isVirtualPlayerError } from './VirtualPlayerError.js';

const HELP = `usage: ethle-vplayer --url URL [--player hls|dash] [--seconds 30] [--scheme e2e] [--pretty]
                     [--local-address IP[,IP…]] [--start-offsets-ms MS[,MS…]] [--id ID]
                     [--max-buffer-length S] [--append-ms MS]

A virtual receiver: fetches the live HLS playlist or DASH MPD at URL the way hls.js 1.7.4 or
dash.js 5.2.1 do with their defaults, plays out at 1x from the wall clock (no decoding) and prints
the run as JSON in the experiments' results format (startup, stalls, true latency, segments).
--player defaults from the URL (.mpd = dash, else hls).
--max-buffer-length caps the forward buffer (hls.js maxBufferLength and maxMaxBufferLength,
dash.js bufferTimeAtTopQuality), as the experiments cap Chromium's for its Media Source quota.
--append-ms is how long after a segment's last byte the next request waits (Chromium's parse and
Media Source append; default 25, 0 = at once).
Several --local-address values play one receiver per address in this process (joining at the
matching --start-offsets-ms, default all at once) and print one JSON line per receiver:
{"receiver":i,"run":{…}} or {"receiver":i,"error":"…"}.
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
        'local-address': { type: 'string' },
        'start-offsets-ms': { type: 'string' },
        id: { type: 'string' },
        'max-buffer-length': { type: 'string' },
        'append-ms': { type: 'string' },
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
  const maxBuffer = v['max-buffer-length'] === undefined ? undefined : Number(v['max-buffer-length']);
  if (maxBuffer !== undefined && !(maxBuffer > 0 && maxBuffer <= 600))
    return fail(`ERR_VPLAYER_CONFIG: --max-buffer-length must be in (0, 600] s, got ${v['max-buffer-length']}`);
  const settings: Pick<VirtualPlayerConfigInput, 'hls' | 'dash' | 'appendMs'> =
    maxBuffer === undefined
      ? {}
      : { hls: { maxBufferLength: maxBuffer, maxMaxBufferLength: maxBuffer }, dash: { bufferTarget: maxBuffer } };
  if (v['append-ms'] !== undefined) settings.appendMs = Number(v['append-ms']);
  // Checked once, by the config's own rules, before any receiver starts.
  try {
    createVirtualPlayerConfig({ url: v.url, player, ...settings });
  } catch (e) {
    if (isVirtualPlayerError(e)) return fail(e.message);
    throw e;
  }
  const addresses = v['local-address']?.split(',').map((a) => a.trim()) ?? [];
  const offsets = v['start-offsets-ms']?.split(',').map(Number) ?? new Array<number>(Math.max(1, addresses.length)).fill(0);
  if (offsets.length !== Math.max(1, addresses.length) || offsets.some((o) => !(o >= 0 && o <= 3_600_000))) {
    return fail(
      `ERR_VPLAYER_CONFIG: --start-offsets-ms wants one offset in [0, 3600000] per receiver (${Math.max(1, addresses.length)}), got ${v['start-offsets-ms']}`,
    );
  }
  if (addresses.length > 1) {
    const plans = addresses.map((localAddress, i) => ({ localAddress, startOffsetMs: offsets[i]!, id: `${v.id ?? 'receiver'}-u${i}` }));
    for (const o of await playReceivers({ url: v.url, player, seconds, scenario: { scheme: v.scheme }, ...settings }, plans))
      process.stdout.write(`${JSON.stringify(o)}\n`);
    return 0;
  }
  try {
    if (offsets[0]! > 0) await new Promise((r) => setTimeout(r, offsets[0]));
    const run = await playVirtual({
      url: v.url,
      player,
      seconds,
      scenario: { scheme: v.scheme },
      ...settings,
      ...(addresses[0] ? { localAddress: addresses[0] } : {}),
      ...(v.id ? { id: v.id } : {}),
    });
    process.stdout.write(`${JSON.stringify(run, null, v.pretty ? 1 : undefined)}\n`);
    return 0;
  } catch (e) {
    if (isVirtualPlayerError(e)) return fail(e.message);
    throw e;
  }
}

// `npx tsx packages/virtual-player/src/cli.ts …` runs it directly (the bin imports main from dist).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = await main(process.argv.slice(2));
