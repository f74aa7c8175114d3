import { parseArgs } from 'node:util';
import { DEFAULT_STREAMS } from './streams/StreamSpec.js';
import { startOrigin } from './server/startOrigin.js';
import { startRelayOrigin } from './relay/startRelayOrigin.js';

const HELP = `usage: ethle-origin [--port 8081] [--host 127.0.0.1] [--window 120] [--streams 2M-2s,15M-2s,...]
                    [--period 60] [--segments-per-file 5] [--part-seconds 0.5] [--keep-alive 75]

A live HLS (fMP4, TS) and DASH origin producing segments on the wall clock with the ETHLE paper's
4K CBR segment sizes (Table I). Streams: ${DEFAULT_STREAMS.join(', ')}.
--period: Period length of the multi-period MPDs (periods.mpd, list.mpd), seconds.
--segments-per-file: segments per file of the byte-range playlist (byterange.m3u8).
--part-seconds: LL-HLS part / LL-DASH chunk length, dividing 2 s (default 0.5 for 2 s segments, 1 for 4 and 10 s).
--keep-alive: seconds an idle connection stays open (default 75, nginx's keepalive_timeout).

       ethle-origin relay --upstream URL [--upstream-socket PATH] [--port 8081] [--host 127.0.0.1] [--keep-alive 75]

Serves whatever a live HLS/DASH source at URL serves (a packager, ffmpeg, a file looped as live),
request for request, with a production origin's keep-alive, and records each object's size and
each listed segment's duration (/stats → source). --upstream-socket: reach URL's host through a
Unix socket (a network namespace without a route to it).
`;

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'relay') return relay(argv.slice(1));
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
  process.stdout.write(
    `ethle-origin listening on ${origin.url}\n  HLS  ${origin.url}/live/2M-2s/index.m3u8\n  DASH ${origin.url}/live/2M-2s/manifest.mpd\n  stats ${origin.url}/stats\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await origin.close();
  return 0;
}

async function relay(argv: string[]): Promise<number> {
  let v;
  try {
    v = parseArgs({
      args: argv,
      options: {
        upstream: { type: 'string' },
        'upstream-socket': { type: 'string' },
        port: { type: 'string', default: '8081' },
        host: { type: 'string', default: '127.0.0.1' },
        'keep-alive': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    process.stderr.write(`ethle-origin relay: ${(e as Error).message}\n${HELP}`);
    return 2;
  }
  if (v.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const port = Number(v.port);
  if (!v.upstream || !Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`ethle-origin relay: ${v.upstream ? `--port must be 0..65535, got ${v.port}` : '--upstream URL is required'}\n`);
    return 2;
  }
  let origin;
  try {
    origin = await startRelayOrigin({
      upstream: v.upstream,
      ...(v['upstream-socket'] ? { upstreamSocket: v['upstream-socket'] } : {}),
      port,
      host: v.host,
      ...(v['keep-alive'] === undefined ? {} : { keepAliveSeconds: Number(v['keep-alive']) }),
    });
  } catch (e) {
    process.stderr.write(`ethle-origin relay: ${(e as Error).message}\n`);
    return 2;
  }
  process.stdout.write(`ethle-origin relay listening on ${origin.url} for ${v.upstream}\n  stats ${origin.url}/stats\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await origin.close();
  return 0;
}
