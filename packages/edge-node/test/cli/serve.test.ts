import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { runServe } from '../../src/cli/serve.js';
import type { RunningEdge } from '../../src/index.js';
import { startTestOrigin } from '../helpers/startTestOrigin.js';

function io() {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: { write: (s: string) => (out.stdout += s) }, stderr: { write: (s: string) => (out.stderr += s) } } };
}

describe('ethle-edge serve', () => {
  it.each([
    [['--port', '8080'], /origin: required/],
    [['--origin', 'http://127.0.0.1:1', '--hold', 'lots'], /hold/],
    [['--origin', 'http://127.0.0.1:1', '--port', 'x'], /--port: expected a number/],
    [['--bogus'], /Unknown option/],
    [['--config', '/nonexistent/edge.json'], /ERR_EDGE_CONFIG_FILE/],
    [['--origin', 'http://127.0.0.1:1', '--workers', '0'], /--workers: an integer/],
    [['--origin', 'http://127.0.0.1:1', '--steering-url', 'ftp://x/steering', '--pathway', 'a', '--public-url', 'http://e'], /steeringUrl/],
    [['--origin', 'http://127.0.0.1:1', '--session-secret-file', '/nonexistent/secret'], /ERR_EDGE_CONFIG_FILE/],
    [['--origin', 'http://127.0.0.1:1', '--lower-hold-after', '4'], /--lower-hold-after wants SEGMENTS,SAMPLES/],
    [['--origin', 'http://127.0.0.1:1', '--lower-hold-after', '4,0'], /lowerHoldAfterSamples/],
  ])('%j → exit 2 with a message', async (argv, msg) => {
    const { out, io: cio } = io();
    expect(await runServe(argv, cio)).toBe(2);
    expect(out.stderr).toMatch(msg);
  });

  it('serves until closed, then exits 0', async () => {
    const origin = await startTestOrigin();
    origin.produce(5);
    const { out, io: cio } = io();
    let edge: RunningEdge | undefined;
    const code = runServe(
      [
        '--origin',
        origin.url,
        '--port',
        '0',
        '--hold',
        '1',
        '--lower-hold-after',
        '2,1',
        '--hold-floor',
        'measured',
        '--segment-start',
        'learn',
        '--log-level',
        'silent',
      ],
      cio,
      { onStarted: (e) => (edge = e) },
    );
    await new Promise<void>((r) => {
      const t = setInterval(() => edge && (clearInterval(t), r()), 10);
    });
    expect(out.stdout).toContain(edge!.url);
    expect(edge!.config).toMatchObject({
      lowerHoldAfterSegments: 2,
      lowerHoldAfterSamples: 1,
      holdFloor: 'measured',
      segmentStart: 'learn',
    });
    const res = await request(`${edge!.url}/live/s/index.m3u8`);
    expect(res.headers['x-ethle-hold-segments']).toBe('1');
    await res.body.dump();
    await edge!.close();
    expect(await code).toBe(0);
    await origin.close();
  });
});
