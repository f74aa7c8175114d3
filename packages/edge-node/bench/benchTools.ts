import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Agent, request } from 'undici';

/** Exit status of a bench that cannot run here (a tool it needs is missing): not a failed figure. */
export const EXIT_BENCH_UNAVAILABLE = 2;

/**
 * Stop with a clear message and exit 2 unless every tool is on the PATH: a bench that needs nginx
 * or wrk must say so, not fail somewhere in a spawn. `hint`: how to get them (e.g. the apt line).
 */
export function requireTools(tools: readonly string[], hint: string): void {
  const dirs = (process.env['PATH'] ?? '').split(delimiter).filter((d) => d !== '');
  const onPath = (t: string): boolean =>
    dirs.some((d) => {
      try {
        accessSync(join(d, t), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  const missing = tools.filter((t) => !onPath(t));
  if (missing.length === 0) return;
  console.error(`ERR_BENCH_TOOL_MISSING: this bench needs ${tools.join(', ')} on the PATH; missing: ${missing.join(', ')}. ${hint}`);
  process.exit(EXIT_BENCH_UNAVAILABLE);
}

/** A key and certificate for one run, in a temp dir that `dispose` removes (nothing is kept). */
export interface ThrowawayCert {
  keyPath: string;
  certPath: string;
  dispose(): void;
}

/**
 * A self-signed ECDSA P-256 certificate for 127.0.0.1/localhost, made with `openssl req -x509`
 * for this run only (Node can make keys but not certificates). Clients in the benches do not
 * verify it (wrk never does; the warm-up passes rejectUnauthorized: false).
 */
export function throwawayCert(): ThrowawayCert {
  const dir = mkdtempSync(join(tmpdir(), 'ethle-bench-tls-'));
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  const r = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1']
      .concat(['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'])
      .concat(['-keyout', keyPath, '-out', certPath]),
    { encoding: 'utf8' },
  );
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`openssl req -x509 failed (${r.status}): ${r.stderr}`);
  }
  const dispose = (): void => rmSync(dir, { recursive: true, force: true });
  // A bench that throws midway still leaves no key behind.
  process.once('exit', dispose);
  return { keyPath, certPath, dispose };
}

/** `ethle-edge serve` arguments for an unheld edge (`--hold 0`) in front of a bench origin, over TLS with `cert`. */
export function unheldEdgeArgs(originUrl: string, workers: number | string, cert?: ThrowawayCert): string[] {
  return [
    '--origin',
    originUrl,
    '--port',
    '0',
    '--hold',
    '0',
    '--workers',
    String(workers),
    ...(cert === undefined ? [] : ['--tls-key', cert.keyPath, '--tls-cert', cert.certPath]),
  ];
}

/** A dispatcher for the benches' own requests: keeps TLS connections without verifying the throwaway cert. */
export function benchAgent(connections: number): Agent {
  return new Agent({ connections, connect: { rejectUnauthorized: false } });
}

/**
 * What a server negotiates with a client that offers TLS 1.2 and 1.3 (Node's defaults, as wrk's
 * OpenSSL does): its protocol and cipher, e.g. `TLSv1.3 TLS_AES_256_GCM_SHA384`.
 */
export function negotiatedTls(url: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const s = tlsConnect({ host: u.hostname, port: Number(u.port), rejectUnauthorized: false, servername: 'localhost' }, () => {
      resolve(`${s.getProtocol() ?? '?'} ${s.getCipher().standardName}`);
      s.end();
    });
    s.once('error', reject);
  });
}

/** Nearest-rank percentiles (p in 0..100) of `values`; NaN for none. */
export function percentiles(values: readonly number[], ps: readonly number[]): number[] {
  if (values.length === 0) return ps.map(() => Number.NaN);
  const sorted = Float64Array.from(values).sort();
  return ps.map((p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!);
}

/** Result of one wrk run. */
export interface WrkResult {
  requestsPerSec: number;
  transferMBps: number;
  errors: string;
}

/** Run wrk against a URL and parse its summary (async: an in-process origin keeps serving). */
export async function wrk(url: string, opts: { threads?: number; connections?: number; seconds?: number } = {}): Promise<WrkResult> {
  const args = [`-t${opts.threads ?? 1}`, `-c${opts.connections ?? 50}`, `-d${opts.seconds ?? 10}s`, url];
  const child = spawn('wrk', args);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`wrk failed (${code})`);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const tr = /Transfer\/sec:\s+([\d.]+)(\w+)/.exec(out);
  const unit = tr?.[2] ?? 'MB';
  const factor = unit === 'GB' ? 1024 : unit === 'KB' ? 1 / 1024 : unit === 'B' ? 1 / 1048576 : 1;
  const errors = (/Non-2xx or 3xx responses: \d+|Socket errors: .*/.exec(out) ?? [''])[0];
  return { requestsPerSec: Number(rps?.[1] ?? 0), transferMBps: Number(tr?.[1] ?? 0) * factor, errors };
}

/**
 * Debian nginx as a caching reverse proxy for the origin (the comparison the issue asks for):
 * proxy_cache + proxy_cache_lock (one origin request per object), manifests cached for 1 s
 * (a common live setting), segments for 60 s. One worker, like the single-threaded edge.
 */
export async function startNginx(
  originUrl: string,
  port: number,
  workers = 1,
  tls?: { keyPath: string; certPath: string },
): Promise<{ url: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'ethle-nginx-'));
  mkdirSync(join(dir, 'cache'));
  mkdirSync(join(dir, 'logs'));
  // As root, nginx workers drop to 'nobody' and could not write the temp cache: keep root.
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  const conf = `
${user}
worker_processes ${workers};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=live:16m max_size=1g inactive=2m use_temp_path=off;
  upstream origin { server ${new URL(originUrl).host}; keepalive 16; }
  server {
    listen 127.0.0.1:${port}${tls === undefined ? '' : ' ssl'};
${
  tls === undefined
    ? ''
    : `    ssl_certificate ${tls.certPath};
    ssl_certificate_key ${tls.keyPath};
    ssl_protocols TLSv1.3;`
}
    location ~ \\.(m3u8|mpd)$ {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache live;
      proxy_cache_lock on;
      proxy_cache_valid 200 1s;
      proxy_cache_use_stale updating;
    }
    location / {
      proxy_pass http://origin;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache live;
      proxy_cache_lock on;
      proxy_cache_lock_timeout 10s;
      proxy_cache_valid 200 60s;
    }
  }
}`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const child: ChildProcess = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'inherit' });
  const url = `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`;
  const probe = benchAgent(1);
  await waitFor(
    async () =>
      (await request(`${url}/`, { dispatcher: probe }).then(
        (r) => r.body.dump(),
        () => false,
      )) !== false,
  );
  await probe.close();
  return {
    url,
    async stop() {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One of the project's built CLIs in its own process, started with `args` and resolved once it
 * prints "listening on URL". A bench that crashes must not leave it running (a soak once did).
 */
async function startCliProcess(
  bin: string,
  args: string[],
  what: string,
  onLine?: (line: string) => void,
  cpus?: string,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  // taskset execs the program: the child's pid is the CLI's own (RSS, CPU and signals reach it).
  const child =
    cpus === undefined
      ? spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn('taskset', ['-c', cpus, process.execPath, bin, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  if (onLine !== undefined) {
    let rest = '';
    child.stdout!.on('data', (d: Buffer) => {
      const lines = (rest + d.toString()).split('\n');
      rest = lines.pop()!;
      for (const l of lines) onLine(l);
    });
  }
  const kill = (): void => void child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`${what} exited ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Start the built edge CLI in its own process (like nginx), return its URL and pid. `onLog`: each
 * line it logs (pino JSON, warn and above), else they are dropped. `cpus`: a taskset CPU list the
 * edge (and any worker it forks) is confined to. `bin`: another build's `bin/ethle-edge.js` (an
 * A/B comparison), else this checkout's.
 */
export function startEdgeProcess(
  args: string[],
  onLog?: (line: string) => void,
  cpus?: string,
  bin = new URL('../bin/ethle-edge.js', import.meta.url).pathname,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  // Every receiver of a bench runs on this box, from one address: no per-client connection limit.
  return startCliProcess(bin, ['serve', '--max-connections-per-client', '0', ...args, '--log-level', 'warn'], 'edge', onLog, cpus);
}

/**
 * The built live origin CLI in its own process (`ethle-origin`), with its /stats over HTTP.
 * `keepAliveSeconds`: how long it keeps an idle connection (its default: nginx's 75 s).
 */
export async function startOriginProcess(
  streams: string[],
  keepAliveSeconds?: number,
): Promise<{ url: string; stats(): Promise<{ bytesSent: number; requests: Record<string, number> }>; stop(): Promise<void> }> {
  const p = await startCliProcess(
    new URL('../../live-origin/bin/ethle-origin.js', import.meta.url).pathname,
    ['--port', '0', '--streams', streams.join(','), ...(keepAliveSeconds === undefined ? [] : ['--keep-alive', String(keepAliveSeconds)])],
    'origin',
  );
  return {
    url: p.url,
    async stats() {
      return (await (await fetch(`${p.url}/stats`)).json()) as { bytesSent: number; requests: Record<string, number> };
    },
    stop: p.stop,
  };
}

/** A process's direct children (the workers of `serve --workers`); none when not Linux or gone. */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((s) => s !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/** RSS of a process and its children (the workers of `serve --workers`), MB. */
export function rssTreeMb(pid: number): number {
  return rssMb(pid) + childPids(pid).reduce((a, c) => a + rssMb(c), 0);
}

/**
 * CPU time (user + system, s) a process and its direct children have used so far, from
 * /proc/PID/stat (fields 14 and 15, in USER_HZ = 100 ticks/s on Linux).
 */
export function cpuSecondsTree(pid: number): number {
  const one = (p: number): number => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(f[11]) + Number(f[12])) / 100;
    } catch {
      return 0;
    }
  };
  return one(pid) + childPids(pid).reduce((a, c) => a + one(c), 0);
}

/** Resident set size of a process in MB (from /proc). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

export async function waitFor(fn: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error('timeout');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The backhaul tap (backhaulTapMain.ts) in its own process, through the same loader as this one
 * (tsx): a relay to `originUrl` counting the origin's bytes on the wire.
 */
export async function startTapProcess(originUrl: string): Promise<{ url: string; down(): Promise<number>; stop(): Promise<void> }> {
  const main = new URL('./backhaulTapMain.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, [...process.execArgv, main, originUrl], { stdio: ['ignore', 'pipe', 'inherit'] });
  const kill = (): void => void child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
  const { url, stats } = await new Promise<{ url: string; stats: string }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const u = /listening on (\S+)/.exec(out);
      const s = /bytes on (\S+)/.exec(out);
      if (u && s) resolve({ url: u[1]!, stats: s[1]! });
    });
    child.once('exit', (code) => reject(new Error(`backhaul tap exited ${code}`)));
  });
  return {
    url,
    down: async () => Number(await (await fetch(stats)).text()),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A small live-shaped origin for the request benches (vsNginx, requestCpu): a 6-segment playlist
 * whose window never moves during a run (every proxy measured sees the same objects), `.ts`
 * segments of `segmentBytes` (2M-2s ≈ 500 kB), 404 for anything else.
 */
export async function startStaticOrigin(segmentBytes: number): Promise<{ url: string; close(): void }> {
  const segment = Buffer.alloc(segmentBytes, 0x47);
  const playlist =
    ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', '#EXT-X-MEDIA-SEQUENCE:100']
      .concat(Array.from({ length: 6 }, (_, i) => `#EXTINF:2.000,\nseg${100 + i}.ts`))
      .join('\n') + '\n';
  const origin = createHttpServer((req, res) => {
    if (req.url?.endsWith('.m3u8'))
      res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl', 'content-length': Buffer.byteLength(playlist) }).end(playlist);
    else if (req.url?.endsWith('.ts')) res.writeHead(200, { 'content-type': 'video/mp2t', 'content-length': segment.length }).end(segment);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(origin.address() as AddressInfo).port}`, close: () => origin.close() };
}
