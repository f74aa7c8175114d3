import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dashMpd } from '../manifests/dashMpd.js';
import { hlsLlPlaylist } from '../manifests/hlsLlPlaylist.js';
import { hlsByteRangePlaylist } from '../manifests/hlsByteRangePlaylist.js';
import { hlsCuePlaylist } from '../manifests/hlsCuePlaylist.js';
import { hlsMediaPlaylist, hlsMultivariantPlaylist } from '../manifests/hlsPlaylists.js';
import { hlsAudioRenditionPlaylist, hlsTrackPlaylist } from '../manifests/hlsRenditionPlaylists.js';
import { CHUNK_SECONDS, LOOP_CHUNKS, LoopMedia, type Mp4Variant } from '../media/LoopMedia.js';
import { LiveClock } from '../streams/LiveClock.js';
import { LlParts, type LlPart } from '../streams/LlParts.js';
import { blockingReload } from './blockingReload.js';
import { parseLlQuery } from './parseLlQuery.js';
import { streamAsProduced, type ProducedPiece } from './streamAsProduced.js';
import { waitUntil } from './waitUntil.js';
import { DEFAULT_STREAMS, parseStreamName, type StreamSpec } from '../streams/StreamSpec.js';
import { OriginStats, type OriginStatsJson } from './OriginStats.js';
import { FillerPadding } from '../mp4/FillerPadding.js';
import { OriginOptionError } from './OriginOptionError.js';
import { TsPadding } from './TsPadding.js';
import { parseRange, sliceParts } from './parseRange.js';

export interface OriginOptions {
  /** Port to listen on (0 = any free port). Default 8081. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Stream names `{bitrate}M-{seconds}s`. Default: DEFAULT_STREAMS. */
  streams?: readonly string[];
  /** Live window (playlist length, time-shift buffer), seconds. Default 120. */
  windowSeconds?: number;
  /** Wall clock in ms (tests inject one). Default Date.now. */
  clock?: () => number;
  /** Directory of the committed loop. */
  mediaDir?: string;
  /**
   * Length of each Period of the multi-period MPDs (`periods.mpd`, `list.mpd`), seconds: a
   * multiple of every stream's segment length. Default 60 (tests use a few segments).
   */
  periodSeconds?: number;
  /** Segments per file of the byte-range playlist (`byterange.m3u8`). Default 5. */
  segmentsPerFile?: number;
  /**
   * Length of the low-latency parts (LL-HLS EXT-X-PART, LL-DASH chunks), seconds: it must divide
   * the 2 s loop chunk (0.1 … 2). Default 0.5 s for 2 s segments, 1 s for 4 and 10 s.
   */
  partSeconds?: number;
  /**
   * How long an idle keep-alive connection stays open, seconds. Default 75, nginx's
   * `keepalive_timeout`, as a production origin has it: Node's own default (5 s) closed the
   * connection between two segments of a 10 s stream (or an edge's fetches spaced wider than
   * 5 s), so the next fetch opened a new connection in slow start that a real origin would not have
   * made it open. The server's header timeout is kept above it, as Node requires.
   */
  keepAliveSeconds?: number;
}

/** nginx's default keepalive_timeout, s: what the testbed's origin keeps an idle connection for. */
export const DEFAULT_KEEP_ALIVE_SECONDS = 75;

export interface LiveOrigin {
  /** Base URL, e.g. http://127.0.0.1:8081 */
  url: string;
  port: number;
  /** Segment requests of `stream` hang until resume(stream); production goes on. */
  pause(stream: string): void;
  resume(stream: string): void;
  stats(): OriginStatsJson;
  resetStats(): void;
  /** Epoch of every stream (DASH availabilityStartTime), ms. */
  readonly t0Ms: number;
  /** How long it keeps an idle connection open, s (OriginOptions.keepAliveSeconds). */
  readonly keepAliveSeconds: number;
  close(): Promise<void>;
}

const MAX_URL = 2048;
const MAX_QUERY = 512;
const SEGMENT_RE =
  /^\/live\/([0-9A-Za-z-]{1,16})\/(?:(init\.mp4)|(\d{1,12})\.m4s|ts\/(\d{1,12})\.ts|dash\/([va])\/(?:(init\.mp4)|(\d{1,12})\.m4s|t(\d{1,16})\.m4s))$/;
const FILE_RE = /^\/live\/([0-9A-Za-z-]{1,16})\/br\/(\d{1,12})\.m4s$/;
const MANIFEST_RE =
  /^\/live\/([0-9A-Za-z-]{1,16})\/(index\.m3u8|ts\/index\.m3u8|manifest\.mpd|timeline\.mpd|byterange\.m3u8|cues\.m3u8|video\.m3u8|audio\.m3u8|periods\.mpd|list\.mpd|location\.mpd|cues\.mpd)$/;
/** A Host header fit to build absolute URLs from (host name or IPv4/IPv6 literal, optional port). */
const HOST_RE = /^(?:[0-9A-Za-z.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;
/** The low-latency renditions: LL-HLS playlist, init, segments and parts `{n}.{j}.m4s`; LL-DASH init and chunked segments. */
const LL_RE =
  /^\/live\/([0-9A-Za-z-]{1,16})\/ll\/(?:(index\.m3u8)|(init\.mp4)|(\d{1,12})\.m4s|(\d{1,12})\.(\d{1,4})\.m4s|dash\/([va])\/(?:(init\.mp4)|(\d{1,12})\.m4s))$/;
const LL_MPD_RE = /^\/live\/([0-9A-Za-z-]{1,16})\/ll\.mpd$/;
const ADMIN_RE = /^\/admin\/([0-9A-Za-z-]{1,16})\/(pause|resume)$/;
/**
 * The ladders over every stream of one segment length: HLS multivariant playlists (`master`, with
 * audio renditions `master-audio`, low latency `master-ll`) and a DASH MPD (`master.mpd`), the
 * length in the path (`master-4s.m3u8`) or in `?seconds=`.
 */
const LADDER_RE = /^\/live\/master(|-audio|-ll)(?:-(2|4|10)s)?\.(m3u8|mpd)$/;
/** Segment numbers beyond this (≈ 63 years of 2 s segments) are garbage, not the future. */
const MAX_SEGMENT = 1e9;

const CORS = {
  'access-control-allow-origin': '*',
  // Pages on other origins may read the connection phases of Resource Timing (the QoE probe labels each segment's connection new or reused).
  'timing-allow-origin': '*',
  'access-control-expose-headers': 'Date, Content-Length, Content-Range, X-Ethle-Production-Start, X-Ethle-Production-End',
};

/** Starts the live origin. Resolves once it listens. */
export async function startOrigin(options: OriginOptions = {}): Promise<LiveOrigin> {
  const windowSeconds = options.windowSeconds ?? 120;
  if (!(windowSeconds >= 20 && windowSeconds <= 3600))
    throw new OriginOptionError(`windowSeconds must be within [20, 3600], got ${windowSeconds}`, 'windowSeconds');
  const streams = new Map<string, StreamSpec>();
  for (const name of options.streams ?? DEFAULT_STREAMS) {
    const s = parseStreamName(name);
    if (!s) throw new OriginOptionError(`not a stream name: ${JSON.stringify(name)} (expected {bitrate}M-{2|4|10}s)`, 'streams');
    streams.set(name, s);
  }
  const periodSeconds = options.periodSeconds ?? 60;
  const segmentSeconds = [...new Set([...streams.values()].map((s) => s.segmentSeconds))];
  if (!(
    Number.isInteger(periodSeconds) &&
    periodSeconds > 0 &&
    periodSeconds <= 3600 &&
    segmentSeconds.every((L) => periodSeconds % L === 0)
  )) {
    // A Period must start on a segment boundary of every stream.
    throw new OriginOptionError(
      `periodSeconds must be a whole multiple of every stream's segment length (${segmentSeconds.join(', ')} s) up to 3600, got ${periodSeconds}`,
      'periodSeconds',
    );
  }
  const segmentsPerFile = options.segmentsPerFile ?? 5;
  if (!(Number.isInteger(segmentsPerFile) && segmentsPerFile >= 1 && segmentsPerFile <= 100)) {
    throw new OriginOptionError(`segmentsPerFile must be an integer within [1, 100], got ${segmentsPerFile}`, 'segmentsPerFile');
  }
  const partSeconds = options.partSeconds;
  if (partSeconds !== undefined) {
    const perChunk = CHUNK_SECONDS / partSeconds;
    if (!(Number.isFinite(perChunk) && Math.abs(perChunk - Math.round(perChunk)) < 1e-9 && perChunk >= 1 && perChunk <= 20)) {
      throw new OriginOptionError(
        `partSeconds must divide ${CHUNK_SECONDS} s into 1 to 20 parts (e.g. 0.25, 0.5, 1), got ${partSeconds}`,
        'partSeconds',
      );
    }
  }
  const keepAliveSeconds = options.keepAliveSeconds ?? DEFAULT_KEEP_ALIVE_SECONDS;
  if (!(Number.isFinite(keepAliveSeconds) && keepAliveSeconds >= 0.1 && keepAliveSeconds <= 3600)) {
    throw new OriginOptionError(`keepAliveSeconds must be within [0.1, 3600], got ${keepAliveSeconds}`, 'keepAliveSeconds');
  }
  const now = options.clock ?? Date.now;
  const clock = new LiveClock(now, windowSeconds);
  const media = new LoopMedia(options.mediaDir);
  // The part grid of each segment length (all streams of one length share it).
  const llParts = new Map<number, LlParts>();
  for (const L of segmentSeconds) {
    const P = partSeconds ?? (L === 2 ? 0.5 : 1);
    llParts.set(L, new LlParts(clock, L, P, (g) => media.partTimes('av', g, P)));
  }
  let closed = false;
  const maxSegmentBytes = Math.max(...[...streams.values()].map((s) => s.segmentBytes));
  const padding = new TsPadding(maxSegmentBytes);
  const filler = new FillerPadding(maxSegmentBytes);
  const stats = new OriginStats();
  const paused = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    // Date names the second the origin answers in: Node's own is cached per second and renewed by
    // a timer, so on a busy event loop it can name the second before for a few ms after it ends,
    // and players' clocks (the QoE probe's) sync to it.
    res.setHeader('date', new Date().toUTCString());
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, `internal error: ${(e as Error).message}\n`);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = keepAliveSeconds * 1000;
  // Node closes a connection whose next request's headers take longer than this: above the
  // keep-alive, so an idle connection ends by the keep-alive rule, not this one.
  server.headersTimeout = Math.max(server.headersTimeout, server.keepAliveTimeout + 1000);
  server.on('connection', (socket) => {
    sockets.add(socket);
    stats.openConnections += 1;
    socket.on('close', () => {
      sockets.delete(socket);
      stats.openConnections -= 1;
    });
  });

  function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    const buf = Buffer.from(body);
    res.writeHead(status, {
      ...CORS,
      'content-type': 'text/plain; charset=utf-8',
      'content-length': buf.length,
      'cache-control': 'no-store',
      ...headers,
    });
    res.end(res.req.method === 'HEAD' ? undefined : buf);
    if (res.req.method !== 'HEAD') stats.bytesSent += buf.length;
  }

  function sendBody(res: ServerResponse, headers: Record<string, string | number>, whole: Buffer[]): void {
    const total = whole.reduce((a, b) => a + b.length, 0);
    // Byte ranges, as any HTTP origin serves them (an edge may fetch one segment over several
    // connections; a player may use EXT-X-BYTERANGE).
    const range = parseRange(res.req.headers.range, total);
    if (range === 'unsatisfiable') {
      res.writeHead(416, { ...CORS, 'content-range': `bytes */${total}`, 'content-length': 0 }).end();
      return;
    }
    const parts = range === undefined ? whole : sliceParts(whole, range.start, range.end);
    const length = range === undefined ? total : range.end - range.start + 1;
    res.writeHead(range === undefined ? 200 : 206, {
      ...CORS,
      ...headers,
      'accept-ranges': 'bytes',
      'content-length': length,
      ...(range === undefined ? {} : { 'content-range': `bytes ${range.start}-${range.end}/${total}` }),
    });
    if (res.req.method === 'HEAD') {
      res.end();
      return;
    }
    // Each part is written by reference (the padding is a subarray of one shared buffer); corked,
    // so the hundreds of parts of a padded fMP4 segment go out as one writev.
    res.cork();
    for (let i = 0; i < parts.length - 1; i++) res.write(parts[i]);
    res.end(parts[parts.length - 1]);
    res.on('finish', () => (stats.bytesSent += length));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? '/';
    if (raw.length > MAX_URL) return send(res, 414, 'URI too long\n');
    const q = raw.indexOf('?');
    const path = q < 0 ? raw : raw.slice(0, q);
    const query = q < 0 ? '' : raw.slice(q + 1);
    if (query.length > MAX_QUERY) return send(res, 414, 'query string too long\n');
    if (path.includes('..') || path.includes('//') || /%2e/i.test(path)) return send(res, 400, 'bad path\n');
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      res.writeHead(204, {
        ...CORS,
        'access-control-allow-methods': 'GET, HEAD, POST',
        'access-control-allow-headers': '*',
        'access-control-max-age': '600',
      });
      return void res.end();
    }

    const admin = ADMIN_RE.exec(path);
    if (admin) {
      if (method !== 'POST') return send(res, 405, 'use POST\n', { allow: 'POST' });
      const name = admin[1]!;
      if (!streams.has(name)) return send(res, 404, `unknown stream ${name}\n`);
      if (admin[2] === 'pause') pause(name);
      else resume(name);
      return send(res, 200, `${JSON.stringify({ stream: name, paused: paused.has(name) })}\n`, { 'content-type': 'application/json' });
    }
    if (method !== 'GET' && method !== 'HEAD') return send(res, 405, 'method not allowed\n', { allow: 'GET, HEAD, OPTIONS' });

    if (path === '/time') return send(res, 200, new Date(now()).toISOString(), { 'cache-control': 'no-store' });
    if (path === '/stats') {
      const body = JSON.stringify(stats.toJSON());
      if (/(^|&)reset=1(&|$)/.test(query)) stats.reset();
      return send(res, 200, `${body}\n`, { 'content-type': 'application/json' });
    }
    if (path === '/' || path === '/live' || path === '/live/') {
      return send(
        res,
        200,
        `ethle live origin\nstreams: ${[...streams.keys()].join(', ')}\nHLS /live/{name}/index.m3u8, /live/{name}/ts/index.m3u8, /live/master.m3u8?seconds=2 (or /live/master-2s.m3u8)\nDASH /live/{name}/manifest.mpd, /live/{name}/timeline.mpd, /live/master-2s.mpd (every stream of one length, one Representation each)\n` +
          `shapes: HLS /live/{name}/byterange.m3u8, /live/{name}/cues.m3u8, /live/master-audio.m3u8?seconds=2; DASH /live/{name}/periods.mpd, /live/{name}/list.mpd, /live/{name}/location.mpd, /live/{name}/cues.mpd\n`,
      );
    }

    const ladder = LADDER_RE.exec(path);
    if (ladder) {
      // The segment length: in the path (`master-4s.m3u8`, which an edge that keeps no query string
      // still forwards), else `?seconds=`, else 2.
      const m = /(?:^|&)seconds=(2|4|10)(?:&|$)/.exec(query);
      if (query !== '' && !m) return send(res, 400, 'seconds must be 2, 4 or 10\n');
      if (ladder[2] !== undefined && m && m[1] !== ladder[2])
        return send(res, 400, `the path says ${ladder[2]} s segments, the query ${m[1]} s\n`);
      const L = Number(ladder[2] ?? m?.[1] ?? 2);
      const list = [...streams.values()].filter((s) => s.segmentSeconds === L);
      if (list.length === 0) return send(res, 404, `no stream with ${L} s segments\n`);
      stats.count(path, req.headers.range);
      if (ladder[3] === 'mpd') {
        // One MPD with every stream of this length as a video Representation (dash.js's ABR picks).
        if (ladder[1] !== '') return send(res, 404, 'not found\n');
        const mpd = dashMpd(list[0]!, clock, media, now(), { timeUrl: `http://${hostOf(req)}/time`, addressing: 'number', ladder: list });
        return send(res, 200, mpd, {
          'content-type': 'application/dash+xml',
          'cache-control': `public, max-age=${Math.max(1, Math.floor(L / 2))}`,
        });
      }
      const body =
        ladder[1] === ''
          ? hlsMultivariantPlaylist(list, media.codecs('av'))
          : ladder[1] === '-ll'
            ? hlsMultivariantPlaylist(list, media.codecs('av'), 'll/index.m3u8')
            : hlsAudioRenditionPlaylist(list, media);
      return send(res, 200, body, { 'content-type': 'application/vnd.apple.mpegurl', 'cache-control': 'max-age=60' });
    }

    const ll = LL_RE.exec(path);
    if (ll) return serveLl(req, res, path, query, ll);
    const llMpd = LL_MPD_RE.exec(path);
    if (llMpd) {
      const s = streams.get(llMpd[1]!);
      if (!s) return send(res, 404, `unknown stream ${llMpd[1]}\n`);
      stats.count(path, req.headers.range);
      const P = llParts.get(s.segmentSeconds)!.partSeconds;
      const mpd = dashMpd(s, clock, media, now(), {
        timeUrl: `http://${hostOf(req)}/time`,
        addressing: 'number',
        // A latency of 3 s for 2 s segments (and never under 3 chunks): room for a chunk in flight and a little buffer.
        lowLatency: { chunkSeconds: P, targetLatencyMs: Math.max(3000, 3 * P * 1000) },
      });
      return send(res, 200, mpd, {
        'content-type': 'application/dash+xml',
        'cache-control': `public, max-age=${Math.max(1, Math.floor(s.segmentSeconds / 2))}`,
      });
    }

    const man = MANIFEST_RE.exec(path);
    if (man) {
      const s = streams.get(man[1]!);
      if (!s) return send(res, 404, `unknown stream ${man[1]}\n`);
      stats.count(path, req.headers.range);
      const t = now();
      // Live manifests change every segment: cache for at most half a segment (RFC 8216 §6.2.1 spirit).
      const cc = `public, max-age=${Math.max(1, Math.floor(s.segmentSeconds / 2))}`;
      const file = man[2]!;
      if (file.endsWith('.m3u8')) {
        const body =
          file === 'index.m3u8'
            ? hlsMediaPlaylist(s, clock, 'fmp4', t)
            : file === 'ts/index.m3u8'
              ? hlsMediaPlaylist(s, clock, 'ts', t)
              : file === 'byterange.m3u8'
                ? hlsByteRangePlaylist(s, clock, t, layoutOf(s))
                : file === 'cues.m3u8'
                  ? hlsCuePlaylist(s, clock, t)
                  : hlsTrackPlaylist(s, clock, media, file === 'video.m3u8' ? 'v' : 'a', t);
        return send(res, 200, body, { 'content-type': 'application/vnd.apple.mpegurl', 'cache-control': cc });
      }
      // Absolute URLs name this origin as the client reached it (Host), as a CDN-fronted packager would.
      const base = `http://${hostOf(req)}`;
      const timeUrl = `${base}/time`;
      const mpd =
        file === 'manifest.mpd'
          ? dashMpd(s, clock, media, t, { timeUrl, addressing: 'number' })
          : file === 'timeline.mpd'
            ? dashMpd(s, clock, media, t, { timeUrl, addressing: 'timeline' })
            : file === 'periods.mpd'
              ? dashMpd(s, clock, media, t, { timeUrl, addressing: 'timeline', periodSeconds })
              : file === 'list.mpd'
                ? dashMpd(s, clock, media, t, { timeUrl, addressing: 'list', periodSeconds })
                : file === 'cues.mpd'
                  ? dashMpd(s, clock, media, t, { timeUrl, addressing: 'number', scte35: true })
                  : dashMpd(s, clock, media, t, {
                      timeUrl,
                      addressing: 'number',
                      location: `${base}${path}`,
                      baseUrl: `${base}/live/${s.name}/`,
                    });
      return send(res, 200, mpd, { 'content-type': 'application/dash+xml', 'cache-control': cc });
    }

    const br = FILE_RE.exec(path);
    if (br) return serveFile(req, res, path, br[1]!, Number(br[2]));

    const seg = SEGMENT_RE.exec(path);
    if (!seg) return send(res, 404, 'not found\n');
    const s = streams.get(seg[1]!);
    if (!s) return send(res, 404, `unknown stream ${seg[1]}\n`);
    const L = s.segmentSeconds;
    const k = L / CHUNK_SECONDS;

    // Init segments never change and are always available.
    const initVariant: Mp4Variant | undefined = seg[2] ? 'av' : seg[6] ? (seg[5] as Mp4Variant) : undefined;
    if (initVariant) {
      stats.count(path, req.headers.range);
      return sendBody(res, { 'content-type': initVariant === 'a' ? 'audio/mp4' : 'video/mp4', 'cache-control': 'public, max-age=86400' }, [
        media.init(initVariant),
      ]);
    }

    let n: number;
    let kind: 'av' | 'ts' | Mp4Variant;
    if (seg[3] !== undefined) {
      n = Number(seg[3]);
      kind = 'av';
    } else if (seg[4] !== undefined) {
      n = Number(seg[4]);
      kind = 'ts';
    } else {
      kind = seg[5] as Mp4Variant;
      if (seg[7] !== undefined) n = Number(seg[7]);
      else {
        const found = numberAtTime(kind, Number(seg[8]), k);
        if (found === undefined) return send(res, 404, `no ${kind} segment starts at time ${seg[8]}\n`);
        n = found;
      }
    }
    if (!Number.isSafeInteger(n) || n > MAX_SEGMENT) return send(res, 400, 'segment number out of range\n');
    const t = now();
    const end = clock.endMs(n, L);
    if (end > t) return send(res, 404, `segment ${n} is not available until ${new Date(end).toISOString()}\n`);
    // One segment of grace past the window: a player that just read the playlist may still ask.
    if (end < t - (windowSeconds + L) * 1000) return send(res, 410, `segment ${n} left the live window\n`);
    stats.count(path, req.headers.range);

    const gate = paused.get(s.name);
    if (gate) {
      await gate.promise;
      if (req.destroyed) return;
    }

    const parts = segmentParts(s, kind, n);
    sendBody(
      res,
      {
        'content-type': kind === 'ts' ? 'video/mp2t' : kind === 'a' ? 'audio/mp4' : 'video/mp4',
        'cache-control': 'public, max-age=86400, immutable',
        'x-ethle-production-start': new Date(clock.startMs(n, L)).toISOString(),
        'x-ethle-production-end': new Date(end).toISOString(),
      },
      parts,
    );
  }

  /**
   * The low-latency renditions. LL-HLS: the playlist (blocking reload, delta updates), whole
   * segments once complete, parts from the moment they are hinted, streamed while produced. LL-DASH:
   * segments from the moment their production starts, streamed chunk by chunk while produced.
   */
  async function serveLl(req: IncomingMessage, res: ServerResponse, path: string, query: string, m: RegExpExecArray): Promise<void> {
    const s = streams.get(m[1]!);
    if (!s) return send(res, 404, `unknown stream ${m[1]}\n`);
    const L = s.segmentSeconds;
    const parts = llParts.get(L)!;
    if (m[2]) {
      const q = parseLlQuery(query);
      if (typeof q === 'string') return send(res, 400, `${q}\n`);
      stats.count(path, req.headers.range);
      if (q.msn !== undefined) {
        stats.countBlocking(path, q.msn, q.part);
        const b = blockingReload(parts, now(), q.msn, q.part);
        if (b.kind === 'too-far') return send(res, 400, `${b.message}\n`);
        // Within those limits every wait ends in under two target durations: no 503 is needed.
        if (!(await waitUntil(now, b.atMs, () => closed || req.destroyed || res.destroyed))) return void res.destroy();
      }
      const reports = [...streams.values()].filter((o) => o.segmentSeconds === L && o !== s);
      const body = hlsLlPlaylist(s, parts, now(), { skip: q.skip, reports });
      // A blocking response is for one URL that will not change; the plain playlist changes every part.
      const cc = q.msn !== undefined ? `public, max-age=${6 * L}` : 'no-cache';
      return send(res, 200, body, { 'content-type': 'application/vnd.apple.mpegurl', 'cache-control': cc });
    }
    if (m[3] || m[8]) {
      stats.count(path, req.headers.range);
      const v: Mp4Variant = m[3] ? 'av' : (m[7] as Mp4Variant);
      return sendBody(res, { 'content-type': v === 'a' ? 'audio/mp4' : 'video/mp4', 'cache-control': 'public, max-age=86400' }, [
        media.init(v),
      ]);
    }
    const n = Number(m[4] ?? m[5] ?? m[9]);
    if (!Number.isSafeInteger(n) || n > MAX_SEGMENT) return send(res, 400, 'segment number out of range\n');
    const t = now();
    if (clock.endMs(n, L) < t - (windowSeconds + L) * 1000) return send(res, 410, `segment ${n} left the live window\n`);
    const kind: Mp4Variant = m[9] !== undefined ? (m[7] as Mp4Variant) : 'av';
    let list: LlPart[];
    if (m[4] !== undefined) {
      // A whole LL-HLS segment is listed only once complete.
      if (clock.endMs(n, L) > t)
        return send(res, 404, `segment ${n} is not available until ${new Date(clock.endMs(n, L)).toISOString()}\n`);
      list = Array.from({ length: parts.perSegment }, (_, j) => parts.part(n, j));
    } else if (m[5] !== undefined) {
      const j = Number(m[6]);
      if (j >= parts.perSegment) return send(res, 404, `segment ${n} has parts 0 to ${parts.perSegment - 1}\n`);
      const p = parts.part(n, j);
      // The hinted part (in production) and the one after it are answered at once and streamed.
      if (p.startMs > t + parts.partTargetSeconds * 1000)
        return send(res, 404, `part ${n}.${j} is not produced until ${new Date(p.startMs).toISOString()}\n`);
      list = [p];
    } else {
      // LL-DASH: a segment is announced once its first chunk is done (availabilityTimeOffset);
      // allow a client clock a second early.
      if (clock.startMs(n, L) > t + 1000)
        return send(res, 404, `segment ${n} is not produced until ${new Date(clock.startMs(n, L)).toISOString()}\n`);
      list = Array.from({ length: parts.perSegment }, (_, j) => parts.part(n, j));
    }
    stats.count(path, req.headers.range);
    const gate = paused.get(s.name);
    if (gate) {
      await gate.promise;
      if (req.destroyed) return;
    }
    const pieces = llPieces(s, kind, n, list);
    const first = list[0]!;
    const last = list[list.length - 1]!;
    const headers = {
      'content-type': kind === 'a' ? 'audio/mp4' : 'video/mp4',
      'cache-control': 'public, max-age=86400, immutable',
      'x-ethle-production-start': new Date(first.startMs).toISOString(),
      'x-ethle-production-end': new Date(last.endMs).toISOString(),
    };
    if (last.endMs <= now())
      return sendBody(
        res,
        headers,
        pieces.flatMap((p) => p.buffers),
      );
    // In production: chunked transfer, bytes as they are produced (byte ranges only once complete).
    res.writeHead(200, { ...CORS, ...headers });
    if (req.method === 'HEAD') return void res.end();
    stats.bytesSent += await streamAsProduced(res, pieces, now);
  }

  /**
   * The bytes of parts `list` of segment n as CMAF chunks, each padded to its share of the
   * segment's Table I size (by media time, so the parts of a segment add up to exactly that size;
   * DASH audio unpadded, as its whole segments).
   */
  function llPieces(s: StreamSpec, kind: Mp4Variant, n: number, list: readonly LlPart[]): ProducedPiece[] {
    const parts = llParts.get(s.segmentSeconds)!;
    const segStart = clock.startMs(n, s.segmentSeconds);
    const share = (ms: number) => Math.round((s.segmentBytes * (ms - segStart)) / (s.segmentSeconds * 1000));
    const videoTrack = media.videoTrackId(kind);
    const chunks = new Map<number, ReturnType<LoopMedia['mp4Parts']>>();
    return list.map((p) => {
      let c = chunks.get(p.chunk);
      if (c === undefined) chunks.set(p.chunk, (c = media.mp4Parts(kind, p.chunk, parts.partSeconds)));
      const body = c[p.indexInChunk]!.bytes;
      const buffers = videoTrack === undefined ? [body] : filler.pad(body, share(p.endMs) - share(p.startMs), videoTrack);
      return { buffers, startMs: p.startMs, endMs: p.endMs };
    });
  }

  /** Segment n's bytes, by reference where possible. */
  function segmentParts(s: StreamSpec, kind: 'av' | 'ts' | Mp4Variant, n: number): Buffer[] {
    const k = s.segmentSeconds / CHUNK_SECONDS;
    const body = kind === 'ts' ? media.tsSegment(n * k, k) : media.mp4Segment(kind, n * k, k);
    // Pad media to the stream's 4K CBR size: fMP4 inside the video samples (filler NAL units, as a
    // CBR encoder does), TS with null packets; DASH audio stays small (the budget is the video's).
    const videoTrack = kind === 'ts' ? undefined : media.videoTrackId(kind);
    return kind === 'ts'
      ? [body, ...padding.ts(s.segmentBytes - body.length)]
      : videoTrack === undefined
        ? [body]
        : filler.pad(body, s.segmentBytes, videoTrack);
  }

  /**
   * Byte-range layout of a stream's files. A segment's length depends only on its place in the
   * loop, so each is measured once, from the very bytes `{n}.m4s` serves.
   */
  const lengths = new Map<string, number>();
  function layoutOf(s: StreamSpec) {
    const perLoop = LOOP_CHUNKS / (s.segmentSeconds / CHUNK_SECONDS);
    const segmentLength = (n: number) => {
      const key = `${s.name}:${n % perLoop}`;
      let len = lengths.get(key);
      if (len === undefined) lengths.set(key, (len = segmentParts(s, 'av', n).reduce((a, b) => a + b.length, 0)));
      return len;
    };
    return { segmentsPerFile, segmentLength };
  }

  /**
   * `br/{f}.m4s`: the fMP4 segments f·N … f·N+N−1 back to back, as far as they are produced — the
   * file grows while its segments are produced, so it is `no-store` until complete, immutable after.
   * Single byte ranges as for any segment; the production headers are those of the segments that
   * hold the first and the last byte sent.
   */
  async function serveFile(req: IncomingMessage, res: ServerResponse, path: string, name: string, f: number): Promise<void> {
    const s = streams.get(name);
    if (!s) return send(res, 404, `unknown stream ${name}\n`);
    const L = s.segmentSeconds;
    const N = segmentsPerFile;
    if (!Number.isSafeInteger(f) || f * N > MAX_SEGMENT) return send(res, 400, 'file number out of range\n');
    const t = now();
    const first = f * N;
    const newest = Math.min(first + N - 1, clock.newest(L, t));
    if (newest < first) return send(res, 404, `file ${f} is not available until ${new Date(clock.endMs(first, L)).toISOString()}\n`);
    if (clock.endMs(first + N - 1, L) < t - (windowSeconds + L) * 1000) return send(res, 410, `file ${f} left the live window\n`);
    stats.count(path, req.headers.range);
    const gate = paused.get(s.name);
    if (gate) {
      await gate.promise;
      if (req.destroyed) return;
    }
    const parts: Buffer[] = [];
    const ends: number[] = []; // end offset (exclusive) of each segment in the file
    for (let n = first; n <= newest; n++) {
      const p = segmentParts(s, 'av', n);
      parts.push(...p);
      ends.push((ends.at(-1) ?? 0) + p.reduce((a, b) => a + b.length, 0));
    }
    const total = ends.at(-1)!;
    // Which segments the response starts and ends in (for the production headers).
    const range = parseRange(req.headers.range, total);
    const from = range === undefined || range === 'unsatisfiable' ? 0 : range.start;
    const to = range === undefined || range === 'unsatisfiable' ? total - 1 : range.end;
    const at = (byte: number) => first + ends.findIndex((end) => byte < end);
    sendBody(
      res,
      {
        'content-type': 'video/mp4',
        'cache-control': newest === first + N - 1 ? 'public, max-age=86400, immutable' : 'no-store',
        'x-ethle-production-start': new Date(clock.startMs(at(from), L)).toISOString(),
        'x-ethle-production-end': new Date(clock.endMs(at(to), L)).toISOString(),
      },
      parts,
    );
  }

  /** The request's Host if it is fit for an absolute URL, else the address the origin listens on. */
  function hostOf(req: IncomingMessage): string {
    const h = req.headers.host;
    if (h !== undefined && HOST_RE.test(h)) return h;
    const a = server.address() as AddressInfo;
    return a.family === 'IPv6' ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`;
  }

  /** The segment number whose first sample has decode time `time` (SegmentTimeline `$Time$`). */
  function numberAtTime(kind: Mp4Variant, time: number, k: number): number | undefined {
    if (!Number.isSafeInteger(time)) return undefined;
    const loopDur = media.loopDuration(kind);
    const loop = Math.floor(time / loopDur);
    for (let c = 0; c < LOOP_CHUNKS; c += k) {
      const g = loop * LOOP_CHUNKS + c;
      if (media.chunkDecodeTime(kind, g) === time) return g / k;
    }
    return undefined;
  }

  function pause(name: string): void {
    if (paused.has(name)) return;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    paused.set(name, { promise, resolve });
  }

  function resume(name: string): void {
    paused.get(name)?.resolve();
    paused.delete(name);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8081, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    t0Ms: clock.t0Ms,
    keepAliveSeconds,
    pause(name) {
      if (!streams.has(name)) throw new OriginOptionError(`unknown stream ${name}`, 'stream');
      pause(name);
    },
    resume,
    stats: () => stats.toJSON(),
    resetStats: () => stats.reset(),
    async close() {
      closed = true;
      for (const name of [...paused.keys()]) resume(name);
      const stopped = new Promise<void>((r) => server.close(() => r()));
      for (const s of sockets) s.destroy();
      await stopped;
    },
  };
}
