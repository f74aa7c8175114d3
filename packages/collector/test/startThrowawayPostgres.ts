import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian's postgresql puts initdb and pg_ctl (not on PATH), else PATH. */
export function findPostgresBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions)
      if (existsSync(join(base, v, 'bin', 'initdb')) && existsSync(join(base, v, 'bin', 'pg_ctl'))) return join(base, v, 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  return which.status === 0 && found ? join(found, '..') : null;
}

/** PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` user (or nobody). */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line =
    readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:')) ??
    readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('nobody:'));
  if (!line) throw new Error('running as root and no postgres or nobody user to run PostgreSQL as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

function run(bin: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
    let out = '';
    p.stdout.on('data', (c: Buffer) => (out += c.toString()));
    p.stderr.on('data', (c: Buffer) => (out += c.toString()));
    p.once('error', reject);
    p.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${bin} ${args.join(' ')} exited ${code}: ${out.slice(-2000)}`))));
  });
}

export interface ThrowawayPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL cluster of its own in a temp directory (initdb, then pg_ctl start on a free
 * loopback port, trust auth, fsync off: a test's data need not survive a power cut), removed by
 * stop(). Null when the binaries are absent: the caller skips and says why.
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres | null> {
  const bin = findPostgresBin();
  if (bin === null) return null;
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'ethle-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  await run(join(bin, 'initdb'), ['-D', data, '-U', 'ethle', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'], user);
  const opts = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c full_page_writes=off -c synchronous_commit=off`;
  await run(join(bin, 'pg_ctl'), ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', '-t', '60', 'start'], user);
  return {
    url: `postgres://ethle@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        await run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], user);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
