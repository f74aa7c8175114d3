import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { OriginOptionError } from '../server/OriginOptionError.js';
import { OriginStats, type OriginStatsJson } from '../server/OriginStats.js';
import { DEFAULT_KEEP_ALIVE_SECONDS } from '../server/startOrigin.js';
import { SourceRecord, type SourceRecordJson } from './SourceRecord.js';

export interface RelayOriginOptions {
  /**
   * The source: an `http://` URL whose scheme, host and port every request goes to, path and query
   * as the relay was asked (the URL's own path is the manifest a player would load; it is not a prefix).
   */
  upstream: string;
  /**
   * Reach the source through this Unix socket instead of its host and port (the Host header still
   * names the source). A testbed's origin namespace has no route to the machine's own network: the
   * harness bridges a socket to the source there, so the backhaul's TCP is this relay's.
   */
  upstreamSocket?: string;
  /** Default 8081. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** How long an idle keep-alive connection stays open, s: nginx's 75 by default, as `startOrigin`. */
  keepAliveSeconds?: number;
  /** A manifest larger than this is refused (502): it is read whole to record its segments. Default 4 MiB. */
  maxManifestBytes?: number;
  /** Objects and listed segments recorded, at most (SourceRecord). Default 20,000. */
  maxObjects?: number;
  /** The source's response headers must arrive within this, ms, or the request gets a 504. Default 10,000. */
  upstreamTimeoutMs?: number;
  /** Wall clock, ms (a DASH manifest's segments depend on it). Default Date.now. */
  clock?: () => number;
}

export interface RelayOrigin {
  url: string;
  port: number;
  readonly keepAliveSeconds: number;
  /** Requests and fetches per path, bytes sent, open connections — as the live origin's — and what the source served. */
  stats(): RelayStatsJson;
  close(): Promise<void>;
}

export type RelayStatsJson = OriginStatsJson & { source: SourceRecordJson };

const MAX_URL = 2048;
/** Response headers passed on from the source (hop-by-hop and cookies are not). */
const PASS = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'cache-control',
  'etag',
  'last-modified',
  'expires',
  'date',
  'age',
] as const;
const CORS = {
  'access-control-allow-origin': '*',
  'timing-allow-origin': '*',
  'access-control-expose-headers': 'Date, Content-Length, Content-Range, Age',
};
const MANIFEST_TYPE = /mpegurl|dash\+xml/i;
const MANIFEST_PATH = /\.(m3u8|mpd)$/i;
const CONTENT_RANGE_TOTAL = /\/(\d+)\s*$/;

/**
 * A relaying origin: serves whatever a live HLS/DASH source serves (a packager, ffmpeg, a file
 * looped as live), request for request, with the keep-alive of a production origin, so that the
 * TCP connections a far edge or player opens are this server's and its host's congestion control
 * and idle behaviour apply, whatever the source itself runs on. Bodies are streamed, not stored;
 * manifests are read whole (bounded) to record each segment's duration, and every object's size
 * is recorded (SourceRecord) — what a run on the user's own stream says about that stream.
 */
export async function startRelayOrigin(o: RelayOriginOptions): Promise<RelayOrigin> {
  let up: URL;
  try {
    up = new URL(o.upstream);
  } catch {
    throw new OriginOptionError(`upstream must be an absolute http:// URL, got ${JSON.stringify(o.upstream)}`, 'upstream');
  }
  if (up.protocol !== 'http:')
    throw new OriginOptionError(
      `upstream must be an http:// URL (the relay does not speak TLS to its source), got ${up.protocol}//`,
      'upstream',
    );
  const keepAliveSeconds = o.keepAliveSeconds ?? DEFAULT_KEEP_ALIVE_SECONDS;
  if (!(Number.isFinite(keepAliveSeconds) && keepAliveSeconds >= 0.1 && keepAliveSeconds <= 3600))
    throw new OriginOptionError(`keepAliveSeconds must be within [0.1, 3600], got ${keepAliveSeconds}`, 'keepAliveSeconds');
  const maxManifestBytes = o.maxManifestBytes ?? 4 * 2 ** 20;
  if (!(Number.isInteger(maxManifestBytes) && maxManifestBytes >= 1024))
    throw new OriginOptionError(`maxManifestBytes must be an integer ≥ 1024, got ${maxManifestBytes}`, 'maxManifestBytes');
  const timeoutMs = o.upstreamTimeoutMs ?? 10_000;
  if (!(Number.isFinite(timeoutMs) && timeoutMs >= 100))
    throw new OriginOptionError(`upstreamTimeoutMs must be ≥ 100, got ${timeoutMs}`, 'upstreamTimeoutMs');
  const now = o.clock ?? Date.now;
  const base = `${up.protocol}//${up.host}`;
  const stats = new OriginStats();
  const record = new SourceRecord(base, o.maxObjects);
  // Connections to the source are reused (a packager on the same machine: cheap either way) and bounded.
  const agent = new Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 });
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 502, `relay error: ${(e as Error).message}\n`);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = keepAliveSeconds * 1000;
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
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? '/';
    if (raw.length > MAX_URL || !raw.startsWith('/')) return send(res, 414, 'URI too long or not a path\n');
    const q = raw.indexOf('?');
    const path = q < 0 ? raw : raw.slice(0, q);
    if (path.includes('..') || path.includes('//') || /%2e/i.test(path)) return send(res, 400, 'bad path\n');
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      res.writeHead(204, {
        ...CORS,
        'access-control-allow-methods': 'GET, HEAD',
        'access-control-allow-headers': '*',
        'access-control-max-age': '600',
      });
      return void res.end();
    }
    if (method !== 'GET' && method !== 'HEAD') return send(res, 405, 'method not allowed\n', { allow: 'GET, HEAD, OPTIONS' });
    // The relay's own counters (a source's own /stats is shadowed: this path is the testbed's).
    if (path === '/stats')
      return send(res, 200, `${JSON.stringify({ ...stats.toJSON(), source: record.toJSON() })}\n`, { 'content-type': 'application/json' });
    const range = req.headers.range;
    stats.count(path, range);
    const upRes = await fetchUpstream(method, raw, range, res);
    if (upRes === undefined) return;
    const status = upRes.statusCode ?? 502;
    const headers: Record<string, string> = { ...CORS };
    for (const h of PASS) {
      const v = upRes.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    const manifest = MANIFEST_TYPE.test(headers['content-type'] ?? '') || MANIFEST_PATH.test(path);
    if (manifest && status === 200 && method === 'GET') {
      const text = await readBounded(upRes, maxManifestBytes);
      if (text === undefined) return send(res, 502, `the source's manifest ${path} is larger than ${maxManifestBytes} bytes\n`);
      record.manifest(raw, text, now());
      const body = Buffer.from(text);
      headers['content-length'] = String(body.length);
      res.writeHead(status, headers);
      res.end(body);
      stats.bytesSent += body.length;
      return;
    }
    res.writeHead(status, headers);
    if (method === 'HEAD') {
      upRes.resume();
      return void res.end();
    }
    let bytes = 0;
    upRes.on('data', (c: Buffer) => (bytes += c.length));
    upRes.pipe(res);
    await new Promise<void>((resolve) => {
      res.once('close', resolve);
      upRes.once('error', () => (res.destroy(), resolve()));
    });
    stats.bytesSent += bytes;
    if (!upRes.complete) return;
    // The whole object's size: a 206 says it in Content-Range, a 200 is it.
    const total =
      status === 206 ? Number(CONTENT_RANGE_TOTAL.exec(headers['content-range'] ?? '')?.[1] ?? NaN) : status === 200 ? bytes : NaN;
    if (Number.isFinite(total) && !manifest) record.object(raw, total, range === undefined || /^\s*bytes\s*=\s*0+\s*-/i.test(range));
  }

  /** The source's response to this request, or undefined when it failed (the client got a 502/504) or the client went away. */
  function fetchUpstream(
    method: string,
    pathAndQuery: string,
    range: string | undefined,
    res: ServerResponse,
  ): Promise<IncomingMessage | undefined> {
    return new Promise((resolve) => {
      const headers: IncomingHttpHeaders = { host: up.host, 'accept-encoding': 'identity', ...(range !== undefined ? { range } : {}) };
      const upReq = request({
        agent,
        method,
        path: pathAndQuery,
        headers,
        ...(o.upstreamSocket ? { socketPath: o.upstreamSocket } : { host: up.hostname, port: up.port || 80 }),
      });
      const timer = setTimeout(() => upReq.destroy(new Error(`no response headers from the source within ${timeoutMs} ms`)), timeoutMs);
      upReq.once('response', (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      upReq.once('error', (e) => {
        clearTimeout(timer);
        if (!res.headersSent && !res.destroyed) send(res, /within/.test(e.message) ? 504 : 502, `the source failed: ${e.message}\n`);
        else res.destroy();
        resolve(undefined);
      });
      // A receiver that goes away takes its source request (and the response being piped) with it.
      res.once('close', () => {
        if (!res.writableFinished) upReq.destroy();
      });
      upReq.end();
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 8081, o.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const host = o.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    keepAliveSeconds,
    stats: () => ({ ...stats.toJSON(), source: record.toJSON() }),
    async close() {
      const stopped = new Promise<void>((r) => server.close(() => r()));
      for (const s of sockets) s.destroy();
      agent.destroy();
      await stopped;
    },
  };
}

/** A response body as text, or undefined past `max` bytes (the rest is discarded). */
function readBounded(r: IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    r.on('data', (c: Buffer) => {
      n += c.length;
      if (n <= max) chunks.push(c);
    });
    r.once('end', () => resolve(n > max ? undefined : Buffer.concat(chunks).toString('utf8')));
    r.once('error', reject);
  });
}
