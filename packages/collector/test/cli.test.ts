import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultDbPath, main } from '../src/cli/main.js';
import type { RunningCollector } from '../src/http/startCollector.js';
import { LATEST_SCHEMA } from '../src/store/migrations.js';

const dir = mkdtempSync(join(tmpdir(), 'ethle-collector-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: { stdout: { write: (s: string) => (out.stdout += s) }, stderr: { write: (s: string) => (out.stderr += s) }, env: { HOME: dir } },
  };
}

describe('ethle-collector', () => {
  it('a usage mistake is one line with a code, exit 2', async () => {
    for (const [args, message] of [
      [['--port', 'x'], /--port must be a whole number/],
      [['--frobnicate'], /Unknown option '--frobnicate'/],
      [['--db', 'a', '--postgres', 'postgres://x/y'], /--db or --postgres, not both/],
      [['--postgres', 'mysql://x'], /COLLECTOR_ERR_CONFIG: store.postgres must be a postgres:\/\/ URL/],
      [['--cors-origin', 'http://a.example/path'], /is not an origin/],
      [['stray'], /unexpected argument "stray"/],
    ] as const) {
      const { out, io: cli } = io();
      expect(await main([...args], cli), args.join(' ')).toBe(2);
      expect(out.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(out.stderr).toMatch(message);
    }
  });

  it('--help names every option and the default database in the state directory', async () => {
    const { out, io: cli } = io();
    expect(await main(['--help'], cli)).toBe(0);
    for (const flag of ['--port', '--host', '--db', '--postgres', '--cors-origin', '--max-body-bytes', '--commit-interval-ms'])
      expect(out.stdout).toContain(flag);
    expect(out.stdout).toContain(join(dir, '.local', 'state', 'ethle', 'collector.duckdb'));
    expect(defaultDbPath({ XDG_STATE_HOME: '/var/lib/x' })).toBe('/var/lib/x/ethle/collector.duckdb');
  });

  it('migrate, then serve until told to stop, on one file', async () => {
    const db = join(dir, 'c.duckdb');
    const m = io();
    expect(await main(['migrate', '--db', db], m.io)).toBe(0);
    expect(m.out.stdout).toMatch(new RegExp(`is at schema ${LATEST_SCHEMA}`));
    const s = io();
    const stop = new AbortController();
    let running: RunningCollector | undefined;
    const done = main(['--db', db, '--port', '0'], s.io, { signal: stop.signal, onListening: (c) => (running = c) });
    await expect.poll(() => running !== undefined).toBe(true);
    expect(s.out.stdout).toMatch(
      new RegExp(
        `listening on http://127\\.0\\.0\\.1:\\d+ \\(beacons: POST .*/v1/beacon\\), store DuckDB .*c\\.duckdb, schema ${LATEST_SCHEMA}`,
      ),
    );
    expect((await fetch(`${running!.url}/v1/health`)).status).toBe(200);
    stop.abort();
    expect(await done).toBe(0);
    expect(s.out.stdout).toContain('ethle-collector: closed');
  });
});
