import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
export async function startNginx(originUrl: string, port: number, workers = 1): Promise<{ url: string; stop(): Promise<void> }> {
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
    listen 127.0.0.1:${port};
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
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/`).catch(() => undefined)) !== undefined);
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
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
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
 * line it logs (pino JSON, warn and above), else they are dropped.
 */
export function startEdgeProcess(
  args: string[],
  onLog?: (line: string) => void,
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  // Every receiver of a bench runs on this box, from one address: no per-client connection limit.
  return startCliProcess(
    new URL('../bin/ethle-edge.js', import.meta.url).pathname,
    ['serve', '--max-connections-per-client', '0', ...args, '--log-level', 'warn'],
    'edge',
    onLog,
  );
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

/** Resident set size of a process in MB (from /proc). */
/** RSS of a process and its children (the workers of `serve --workers`), MB. */
export function rssTreeMb(pid: number): number {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((s) => s !== '')
      .map(Number);
  } catch {
    // Not Linux, or gone: the process alone.
  }
  return rssMb(pid) + children.reduce((a, c) => a + rssMb(c), 0);
}

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
