import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | { kind: 'status'; status: number; headers?: Record<string, string> }
  /** Answer only once release() is called (a paused origin). */
  | { kind: 'gate' }
  /** Send headers, then nothing more (hang mid-body). */
  | { kind: 'hang-body' }
  /** A body without Content-Length, cut after this many bytes by closing the connection. */
  | { kind: 'close-delimited'; afterBytes: number }
  /**
   * Redirect to this location, with a body of `bodyBytes` (default none) or an endless one
   * (`'endless'`: written as the client takes it, until it closes the connection).
   */
  | { kind: 'redirect'; status: number; location: string; bodyBytes?: number | 'endless' }
  | { kind: 'hang' }
  | { kind: 'truncate'; afterBytes: number }
  | { kind: 'slow'; chunkBytes: number; intervalMs: number }
  /**
   * The segment generated chunk by chunk as the client takes it (waits for 'drain'), never whole
   * in memory: a large object costs the test process one chunk per response, so what a test
   * measures of its own process is the edge's.
   */
  | { kind: 'streamed'; chunkBytes: number }
  | { kind: 'garbage'; body: string };

/**
 * A hand-driven live HLS origin for unit tests: segments are produced when the test calls
 * produce() (no wall clock), each `segmentBytes` of a recognisable pattern; any path can be
 * given a fault. Counts requests per path like the live origin's /stats.
 */
export async function startTestOrigin(
  opts: {
    segmentBytes?: number;
    window?: number;
    targetDuration?: number;
    /** Write EXT-X-BITRATE (kbit/s) before every segment. */
    bitrateKbps?: number;
    /** Serve `…/master.m3u8` as a multivariant playlist with one variant `a/index.m3u8` of this BANDWIDTH. */
    variantBandwidth?: number;
    /** Answer single byte ranges of segments (206/416), as HTTP origins do. Default: ignore Range (200). */
    ranges?: boolean;
    /** A new ETag on every response: the object changes between requests. */
    changingEtag?: boolean;
    /**
     * Write EXT-X-PROGRAM-DATE-TIME per segment: its start, one target duration before produce()
     * made it (a live encoder finishes a segment at its end), so the edge knows production times.
     */
    programDateTime?: boolean;
    /** The server's keep-alive timeout (Node's default: 5 s, announced as `Keep-Alive: timeout=5`). */
    keepAliveTimeoutMs?: number;
  } = {},
) {
  const segmentBytes = opts.segmentBytes ?? 64 * 1024;
  const windowSize = opts.window ?? 6;
  const target = opts.targetDuration ?? 1;
  let produced = 0; // segments 0..produced-1 exist
  const faults = new Map<string, Fault>();
  const requests = new Map<string, number>();
  /** Client ports of the requests per path (which TCP connections carried them). */
  const ports = new Map<string, number[]>();
  /** Range headers received per path. */
  const ranges = new Map<string, string[]>();
  const hanging = new Set<ServerResponse>();
  /** Extra response headers per path (e.g. cache-control: no-store). */
  const extraHeaders = new Map<string, Record<string, string>>();
  /** Faults for every path under a prefix. */
  const prefixFaults = new Map<string, Fault>();
  /** Requests held by a 'gate' fault, answered on release(). */
  const gated = new Set<() => void>();
  /** Responses closed before they finished, per path (the edge gave up on them). */
  const aborted = new Map<string, number>();
  let segmentBytesSent = 0;
  let etag = 0;
  /** Wall-clock production time of the segments in the window (programDateTime). */
  const producedAt = new Map<number, number>();

  const body = (n: number): Buffer => bodySlice(n, 0, segmentBytes);
  /** Bytes [start, end) of segment n's body (start a multiple of 4). */
  const bodySlice = (n: number, start: number, end: number): Buffer => {
    const b = Buffer.alloc(end - start);
    for (let i = start; i < end; i += 4) {
      if (i + 4 <= end) b.writeUInt32BE((n * 1_000_003 + i) >>> 0, i - start);
      else {
        const w = Buffer.alloc(4);
        w.writeUInt32BE((n * 1_000_003 + i) >>> 0, 0);
        w.copy(b, i - start, 0, end - i);
      }
    }
    return b;
  };
  const playlist = (): string => {
    const first = Math.max(0, produced - windowSize);
    let s = `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:${target}\n#EXT-X-MEDIA-SEQUENCE:${first}\n`;
    for (let i = first; i < produced; i++) {
      const at = producedAt.get(i);
      if (opts.programDateTime && at !== undefined) s += `#EXT-X-PROGRAM-DATE-TIME:${new Date(at - target * 1000).toISOString()}\n`;
      s += `${opts.bitrateKbps === undefined ? '' : `#EXT-X-BITRATE:${opts.bitrateKbps}\n`}#EXTINF:${target.toFixed(3)},\nseg${i}.ts\n`;
    }
    return s;
  };
  const multivariant = (): string => `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=${opts.variantBandwidth ?? 1_000_000}\na/index.m3u8\n`;

  // Segment paths with a response under way (a split fetch's ranges count once), and the most at once.
  const open = new Map<string, number>();
  let peakOpen = 0;
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (/\.(ts|m4s)$/.test(path)) {
      open.set(path, (open.get(path) ?? 0) + 1);
      peakOpen = Math.max(peakOpen, open.size);
      res.on('close', () => {
        const n = open.get(path)! - 1;
        if (n === 0) open.delete(path);
        else open.set(path, n);
      });
    }
    ports.set(path, [...(ports.get(path) ?? []), req.socket.remotePort ?? 0]);
    if (req.headers.range !== undefined) ranges.set(path, [...(ranges.get(path) ?? []), req.headers.range]);
    res.on('close', () => {
      if (!res.writableFinished) aborted.set(path, (aborted.get(path) ?? 0) + 1);
    });
    let fault = faults.get(path) ?? faults.get('*');
    if (fault === undefined) for (const [p, f] of prefixFaults) if (path.startsWith(p)) fault = f;
    if (fault?.kind === 'gate') {
      gated.add(() => answer(req, res, undefined));
      return;
    }
    answer(req, res, fault);
  });
  const answer = (req: IncomingMessage, res: ServerResponse, fault: Fault | undefined): void => {
    const path = req.url ?? '/';
    const pathname = path.split('?')[0]!;
    const m = /\/seg(\d+)\.ts$/.exec(pathname);
    if (fault?.kind === 'streamed' && m !== null && Number(m[1]) < produced) {
      const n = Number(m[1]);
      res.writeHead(200, { 'content-type': 'video/mp2t', 'content-length': segmentBytes });
      let off = 0;
      const more = (): void => {
        while (off < segmentBytes && !res.destroyed) {
          const end = Math.min(segmentBytes, off + fault.chunkBytes);
          const ok = res.write(bodySlice(n, off, end));
          segmentBytesSent += end - off;
          off = end;
          if (!ok) {
            res.once('drain', more);
            return;
          }
        }
        if (off >= segmentBytes) res.end();
      };
      more();
      return;
    }
    const isPlaylist = pathname.endsWith('.m3u8');
    let payload: Buffer | undefined;
    if (isPlaylist) payload = Buffer.from(pathname.endsWith('/master.m3u8') ? multivariant() : playlist());
    else if (m !== null && Number(m[1]) < produced) payload = body(Number(m[1]));
    if (fault?.kind === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (fault?.kind === 'status') {
      res.writeHead(fault.status, { 'content-length': 0, ...fault.headers }).end();
      return;
    }
    if (fault?.kind === 'redirect') {
      const note = Buffer.alloc(16 * 1024, 'moved ');
      if (fault.bodyBytes === 'endless') {
        res.writeHead(fault.status, { location: fault.location, 'content-type': 'text/html' });
        const more = (): void => {
          let room = true;
          while (room && !res.destroyed) room = res.write(note);
          if (!res.destroyed) res.once('drain', more);
        };
        more();
        return;
      }
      const n = fault.bodyBytes ?? 0;
      res.writeHead(fault.status, { location: fault.location, 'content-type': 'text/html', 'content-length': n });
      res.end(Buffer.alloc(n, 'moved '));
      return;
    }
    if (path.startsWith('/stats')) {
      const out = JSON.stringify({ requests: Object.fromEntries(requests) });
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(out) })
        .end(out);
      return;
    }
    if (fault?.kind === 'garbage') {
      res
        .writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl', 'content-length': Buffer.byteLength(fault.body) })
        .end(fault.body);
      return;
    }
    if (payload === undefined) {
      res.writeHead(404, { 'content-length': 0 }).end();
      return;
    }
    const version = opts.changingEtag ? { etag: `"v${++etag}"` } : {};
    if (fault?.kind === 'close-delimited') {
      // HTTP/1.0-style framing: the end of the body is the end of the connection.
      res.useChunkedEncodingByDefault = false;
      res.shouldKeepAlive = false;
      res.writeHead(200, { 'content-type': 'video/mp2t', connection: 'close' });
      res.write(payload.subarray(0, fault.afterBytes), () => res.socket?.destroy());
      return;
    }
    const range = !isPlaylist && opts.ranges ? /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '') : null;
    if (range !== null) {
      const start = Number(range[1]);
      if (start >= payload.length) {
        res.writeHead(416, { 'content-range': `bytes */${payload.length}`, 'content-length': 0 }).end();
        return;
      }
      const end = range[2] === '' ? payload.length - 1 : Math.min(Number(range[2]), payload.length - 1);
      const total = payload.length;
      payload = payload.subarray(start, end + 1);
      res.writeHead(206, {
        'content-type': 'video/mp2t',
        'content-length': payload.length,
        'content-range': `bytes ${start}-${end}/${total}`,
        ...version,
      });
    } else
      res.writeHead(200, {
        'content-type': isPlaylist ? 'application/vnd.apple.mpegurl' : 'video/mp2t',
        'content-length': payload.length,
        'x-ethle-production-start': new Date().toISOString(),
        ...version,
        ...extraHeaders.get(path),
      });
    if (!isPlaylist) segmentBytesSent += payload.length;
    if (fault?.kind === 'hang-body') {
      res.write(payload.subarray(0, 1024));
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (fault?.kind === 'truncate') {
      res.write(payload.subarray(0, fault.afterBytes), () => setTimeout(() => res.destroy(), 20));
      return;
    }
    if (fault?.kind === 'slow') {
      let off = 0;
      const tick = (): void => {
        if (res.destroyed) return;
        const end = Math.min(payload.length, off + fault.chunkBytes);
        res.write(payload.subarray(off, end));
        off = end;
        if (off >= payload.length) res.end();
        else setTimeout(tick, fault.intervalMs);
      };
      tick();
      return;
    }
    res.end(payload);
  };
  /** TCP connections the origin accepted. */
  let connections = 0;
  server.on('connection', () => void (connections += 1));
  if (opts.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = opts.keepAliveTimeoutMs;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    segmentBytes,
    body,
    produce(n = 1) {
      const now = Date.now();
      for (let i = 0; i < n; i++) producedAt.set(produced + i, now);
      produced += n;
      for (const k of producedAt.keys()) if (k < produced - windowSize) producedAt.delete(k);
    },
    get produced() {
      return produced;
    },
    fault(path: string, f: Fault | undefined) {
      if (f === undefined) faults.delete(path);
      else faults.set(path, f);
    },
    headers(path: string, h: Record<string, string>) {
      extraHeaders.set(path, h);
    },
    /** A fault for every path starting with `prefix`. */
    faultPrefix(prefix: string, f: Fault | undefined) {
      if (f === undefined) prefixFaults.delete(prefix);
      else prefixFaults.set(prefix, f);
    },
    /** Answer every request held by a 'gate' fault. */
    release() {
      for (const g of [...gated]) g();
      gated.clear();
    },
    get gatedCount() {
      return gated.size;
    },
    /** Responses closed before they finished (the client — the edge — gave up), per path. */
    aborted: (path: string) => aborted.get(path) ?? 0,
    /** Segment body bytes the origin started to send (whole objects or ranges). */
    get segmentBytesSent() {
      return segmentBytesSent;
    },
    releaseHanging() {
      for (const r of hanging) r.destroy();
    },
    requests: (path: string) => requests.get(path) ?? 0,
    /** TCP connections accepted so far (each a handshake the client paid). */
    get connections() {
      return connections;
    },
    /** The most segments being sent at once since the last call (then counting starts anew). */
    takePeakSegmentsInProgress(): number {
      const p = peakOpen;
      peakOpen = open.size;
      return p;
    },
    ports: (path: string) => ports.get(path) ?? [],
    ranges: (path: string) => ranges.get(path) ?? [],
    allRequests: () => new Map(requests),
    close: () =>
      new Promise<void>((r) => {
        for (const h of hanging) h.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export type TestOrigin = Awaited<ReturnType<typeof startTestOrigin>>;

/** Poll a condition until it holds or the deadline passes (no sleeps standing in for events). */
export async function until<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Read one metric sample value from Prometheus text. */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    if (!Object.entries(labels).every(([k, v]) => rest.includes(`${k}="${v}"`))) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

/** Sum of every series of `name` whose labels include `labels` (e.g. across a label's values). */
export function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const rest = line.startsWith(name) ? line.slice(name.length) : '';
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    if (Object.entries(labels).every(([k, v]) => rest.includes(`${k}="${v}"`))) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}
