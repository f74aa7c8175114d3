import { spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { expect, test } from '@playwright/test';
import { startArgs } from '../fixtures/startArgs.js';

// `npm start` as a user mistypes it: every bad input is one line on stderr with a code and exit 2
// (no stack trace); --help lists the options; the banner names the pages and the player's manifests.
const root = new URL('../..', import.meta.url).pathname;
const start = (args: string[]) =>
  spawnSync(process.execPath, ['scripts/start.mjs', ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 });

test('bad input: one line naming the flag, exit 2', () => {
  const cases: [string[], RegExp][] = [
    [['--hold', 'banana'], /--hold must be auto or a whole number.*"banana"/],
    [['--hold', '-1'], /--hold .*"-1"/],
    [['--hold', '21'], /--hold .*0\.\.20.*"21"/],
    [['--port', 'abc'], /--port must be a port number.*"abc"/],
    [['--edge-port', '70000'], /--edge-port must be a port number/],
    [['--frobnicate'], /unknown option --frobnicate/],
    [['--hold'], /--hold needs a value/],
    [['--player', 'foo'], /--player must be hls, dash or shaka, got "foo"/],
    [['--stream', '99M-9s'], /--stream: the origin offers 2M-2s, .*"99M-9s"/],
    [['stray'], /unexpected argument "stray"/],
  ];
  for (const [args, message] of cases) {
    const r = start(args);
    expect(r.status, args.join(' ')).toBe(2);
    expect(r.stderr).toMatch(/^npm start: ERR_START_USAGE: /);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    expect(r.stdout).toBe('');
  }
});

test('--help prints every option and exits 0', () => {
  const r = start(['--help']);
  expect(r.status).toBe(0);
  for (const flag of [
    '--stream',
    '--player',
    '--hold',
    '--port',
    '--edge-port',
    '--origin-port',
    '--collector-port',
    '--data-dir',
    '--host',
  ])
    expect(r.stdout).toContain(flag);
  expect(r.stdout).toContain('15M-2s'); // the streams the origin offers
  expect(r.stderr).toBe('');
});

test('a port in use: one line naming the flag that changes it', async () => {
  const busy: Server = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  const port = String((busy.address() as { port: number }).port);
  try {
    for (const flag of ['--origin-port', '--edge-port', '--collector-port', '--port']) {
      const fresh = startArgs();
      const r = start([...fresh.args, flag, port]);
      fresh.cleanup();
      expect(r.status, flag).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`ERR_START_PORT_IN_USE: port ${port} on 127.0.0.1 is in use; choose another with ${flag} N`);
    }
  } finally {
    await new Promise((r) => busy.close(r));
  }
});

test('--player dash: the banner shows the DASH manifests and the service-worker page', async () => {
  const fresh = startArgs();
  const proc = spawn(process.execPath, ['scripts/start.mjs', ...fresh.args, '--player', 'dash', '--stream', '15M-2s'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.once('exit', () => fresh.cleanup());
  try {
    const banner = await new Promise<string>((resolve, reject) => {
      let out = '';
      proc.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('Ctrl-C to stop.')) resolve(out);
      });
      proc.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${out}`)));
    });
    expect(banner).toMatch(/sw\s+http:\/\/127\.0\.0\.1:\d+\/sw\.html/);
    expect(banner).toMatch(/origin\s+http:\/\/127\.0\.0\.1:\d+\/live\/15M-2s\/manifest\.mpd/);
    expect(banner).toMatch(/edge\s+http:\/\/127\.0\.0\.1:\d+\/live\/15M-2s\/manifest\.mpd/);
    expect(banner).not.toContain('.m3u8');
    expect(banner).toMatch(/collector\s+http:\/\/127\.0\.0\.1:\d+\/v1\/health\s+\(the probes' beacons; DuckDB in .*collector\.duckdb\)/);
    const demo = /open\s+(http:\/\/\S+?)\//.exec(banner)![1]!;
    const collector = /collector\s+(http:\/\/\S+?)\/v1\/health/.exec(banner)![1]!;
    expect(await (await fetch(`${demo}/api/config`)).json()).toMatchObject({ player: 'dash', stream: '15M-2s', collectorUrl: collector });
    expect(await (await fetch(`${collector}/v1/health`)).json()).toMatchObject({ ok: true, store: 'duckdb', schema: expect.any(Number) });
    // A second npm start on the same data directory: one line naming the way out, exit 2.
    const second = start(fresh.args);
    expect(second.status).toBe(2);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toMatch(/^npm start: ERR_START_DATA_IN_USE: .*open in another process.*give another --data-dir/);
  } finally {
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  }
});
