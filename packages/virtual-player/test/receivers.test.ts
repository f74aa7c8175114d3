/**
 * Several receivers in one process (a cell's users, issue 16 item 3): each leaves from its own
 * local address, and one that cannot start is reported without failing the others. Loopback:
 * Linux answers on all of 127/8, so 127.0.0.2 and .3 stand for two users' addresses.
 */
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVirtualPlayerConfig, playReceivers } from '../src/index.js';

let origin: LiveOrigin;
let refusing: Server;
const seen: string[] = [];

beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: ['2M-2s'] });
  // Records who asked and refuses: the receivers' addresses are visible here.
  refusing = createServer((req, res) => (seen.push(req.socket.remoteAddress ?? ''), res.writeHead(503).end()));
  refusing.listen(0, '127.0.0.1');
  await once(refusing, 'listening');
});
afterAll(async () => {
  refusing?.close();
  await origin?.close();
});

describe('playReceivers', () => {
  it('each receiver connects from its own local address; a refused one is an error outcome, not a thrown group', async () => {
    const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/live/2M-2s/index.m3u8`;
    const out = await playReceivers({ url, player: 'hls', seconds: 1 }, [
      { localAddress: '127.0.0.2', startOffsetMs: 0 },
      { localAddress: '127.0.0.3', startOffsetMs: 50 },
    ]);
    expect(out.map((o) => o.receiver)).toEqual([0, 1]);
    for (const o of out) expect('error' in o && o.code).toBe('ERR_VPLAYER_HTTP');
    expect(new Set(seen.map((a) => a.replace(/^::ffff:/, '')))).toEqual(new Set(['127.0.0.2', '127.0.0.3']));
  });

  it('receivers that can play return runs with their ids', async () => {
    const out = await playReceivers({ url: `${origin.url}/live/2M-2s/index.m3u8`, player: 'hls', seconds: 2 }, [
      { localAddress: '127.0.0.2', startOffsetMs: 0, id: 'a' },
      { localAddress: '127.0.0.3', startOffsetMs: 0, id: 'b' },
    ]);
    expect(out.map((o) => ('run' in o ? o.run.id : o.error))).toEqual(['a', 'b']);
  }, 20_000);

  it('a local address must be an IP address', () => {
    expect(() => createVirtualPlayerConfig({ url: 'http://x/a.m3u8', player: 'hls', localAddress: 'eth0' })).toThrow(/localAddress/);
  });
});

describe('ethle-vplayer CLI with a group', () => {
  it('one line per receiver, each from its own address', async () => {
    const { main } = await import('../src/cli.js');
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((c: string) => (out.push(c), true)) as typeof process.stdout.write;
    try {
      const code = await main([
        '--url',
        `${origin.url}/live/2M-2s/index.m3u8`,
        '--seconds',
        '1',
        '--local-address',
        '127.0.0.2,127.0.0.3',
        '--start-offsets-ms',
        '0,10',
        '--id',
        'g',
      ]);
      expect(code).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const lines = out
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { receiver: number; run?: { id: string } });
    expect(lines.map((l) => [l.receiver, l.run?.id])).toEqual([
      [0, 'g-u0'],
      [1, 'g-u1'],
    ]);
  }, 20_000);

  it('offsets must match the receivers', async () => {
    const { main } = await import('../src/cli.js');
    const err: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((c: string) => (err.push(c), true)) as typeof process.stderr.write;
    try {
      expect(await main(['--url', 'http://127.0.0.1:1/x.m3u8', '--local-address', '127.0.0.2,127.0.0.3', '--start-offsets-ms', '0'])).toBe(
        2,
      );
    } finally {
      process.stderr.write = write;
    }
    expect(err.join('')).toMatch(/ERR_VPLAYER_CONFIG: --start-offsets-ms/);
  });
});
