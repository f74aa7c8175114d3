import { parseArgs } from 'node:util';
import { DEFAULT_STREAMS } from './streams/StreamSpec.js';
import { startOrigin } from './server/startOrigin.js';

const HELP = `usage: ethle-origin [--port 8081] [--host 127.0.0.1] [--window 120] [--streams 2M-2s,15M-2s,...]
                    [--period 60] [--segments-per-file 5] [--part-seconds 0.5] [--keep-alive 75]

A live HLS (fMP4, TS) and DASH origin producing segments on the wall clock with the ETHLE paper's
4K CBR segment sizes (Table I). Streams: ${DEFAULT_STREAMS.join(', ')}.
--period: Period length of the multi-period MPDs (periods.mpd, list.mpd), seconds.
--segments-per-file: segments per file of the byte-range playlist (byterange.m3u8).
--part-seconds: LL-HLS part / LL-DASH chunk length, dividing 2 s (default 0.5 for 2 s segments, 1 for 4 and 10 s).
--keep-alive: seconds an idle connection stays open (default 75, nginx's keepalive_timeout).
`;

export async function main(argv: string[]): Promise<number> {
  let v;
  try {
    v = parseArgs({
      args: argv,
      options: {
        port: { type: 'string', default: '8081' },
        host: { type: 'string', default: '127.0.0.1' },
        window: { type: 'string', default: '120' },
        streams: { type: 'string' },
        period: { type: 'string', default: '60' },
        'segments-per-file': { type: 'string', default: '5' },
        'part-seconds': { type: 'string' },
        'keep-alive': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    process.stderr.write(`ethle-origin: ${(e as Error).message}\n${HELP}`);
    return 2;
  }
  if (v.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const port = Number(v.port);
  const windowSeconds = Number(v.window);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`ethle-origin: --port must be 0..65535, got ${v.port}\n`);
    return 2;
  }
  let origin;
  try {
    origin = await startOrigin({
      port,
      host: v.host,
      windowSeconds,
      streams: v.streams?.split(',').map((s) => s.trim()),
      periodSeconds: Number(v.period),
      segmentsPerFile: Number(v['segments-per-file']),
      ...(v['part-seconds'] === undefined ? {} : { partSeconds: Number(v['part-seconds']) }),
      ...(v['keep-alive'] === undefined ? {} : { keepAliveSeconds: Number(v['keep-alive']) }),
    });
  } catch (e) {
    process.stderr.write(`ethle-origin: ${(e as Error).message}\n`);
    return 2;
  }
  process.stdout.write(`ethle-origin listening on ${origin.url}\n  HLS  ${origin.url}/live/2M-2s/index.m3u8\n  DASH ${origin.url}/live/2M-2s/manifest.mpd\n  stats ${origin.url}/stats\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await origin.close();
  return 0;
}
