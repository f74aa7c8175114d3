import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { runSteer } from '../../src/cli/steer.js';

function io() {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: { write: (s: string) => (out.stdout += s) }, stderr: { write: (s: string) => (out.stderr += s) } } };
}

describe('ethle-edge steer', () => {
  it.each([
    [[], /edges/],
    [['--edges', 'a=http://x,a=http://y'], /duplicate/],
    [['--edges', 'http://x', '--ttl', 'soon'], /--ttl: expected a number/],
  ])('%j → exit 2 with a message', async (argv, msg) => {
    const { out, io: cio } = io();
    expect(await runSteer(argv, cio)).toBe(2);
    expect(out.stderr).toMatch(msg);
  });

  it('serves the steering manifest for bare edge URLs (ids edge-1, edge-2) until stopped', async () => {
    const { out, io: cio } = io();
    let stop: (() => Promise<void>) | undefined;
    let url = '';
    const code = runSteer(
      ['--edges', 'http://127.0.0.1:1,http://127.0.0.2:1', '--port', '0', '--ttl', '2'],
      cio,
      (u, s) => ((url = u), (stop = s)),
    );
    await new Promise<void>((r) => {
      const t = setInterval(() => stop && (clearInterval(t), r()), 10);
    });
    expect(out.stdout).toContain(`${url}/steering`);
    const m = (await (await request(`${url}/steering?_HLS_pathway=edge-2`)).body.json()) as { TTL: number; 'PATHWAY-PRIORITY': string[] };
    // Neither edge answers its load report: neither is ready, both are listed (none better).
    expect(m).toMatchObject({ TTL: 2, 'PATHWAY-PRIORITY': ['edge-1', 'edge-2'] });
    await stop!();
    expect(await code).toBe(0);
  });
});
