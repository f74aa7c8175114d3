import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli.js';
import { createVirtualPlayerConfig } from '../src/config/createVirtualPlayerConfig.js';

describe('createVirtualPlayerConfig', () => {
  it('merges the players’ defaults', () => {
    const c = createVirtualPlayerConfig({ url: 'http://127.0.0.1:1/live/x/index.m3u8', player: 'hls', hls: { maxBufferLength: 10 } });
    expect(c.hls).toMatchObject({ liveSyncDurationCount: 3, maxBufferLength: 10, maxMaxBufferLength: 600 });
    expect(c.dash.bufferTarget).toBe(30);
    expect(c.appendMs).toBe(25);
    expect(createVirtualPlayerConfig({ url: 'http://127.0.0.1:1/x.mpd', player: 'dash', appendMs: 0 }).appendMs).toBe(0);
  });
  it.each([
    [{ url: 'not a url', player: 'hls' }, /url is not an absolute URL/],
    [{ url: 'ftp://x/y.m3u8', player: 'hls' }, /must be http/],
    [{ url: 'http://x/y.m3u8', player: 'vlc' }, /player must be hls or dash/],
    [{ url: 'http://x/y.m3u8', player: 'hls', hls: { liveSyncDurationCount: 0 } }, /hls.liveSyncDurationCount must be a positive number/],
    [{ url: 'http://x/y.mpd', player: 'dash', dash: { liveDelay: -1 } }, /dash.liveDelay must be a positive number/],
    [{ url: 'http://x/y.m3u8', player: 'hls', appendMs: -1 }, /appendMs must be a number in \[0, 1000\]/],
    [{ url: 'http://x/y.m3u8', player: 'hls', appendMs: Number.NaN }, /appendMs must be a number in \[0, 1000\]/],
  ])('rejects %j with ERR_VPLAYER_CONFIG', (input, message) => {
    expect(() => createVirtualPlayerConfig(input as never)).toThrow(message);
    expect(() => createVirtualPlayerConfig(input as never)).toThrow(/^ERR_VPLAYER_CONFIG: /);
  });
});

describe('ethle-vplayer CLI', () => {
  afterEach(() => vi.restoreAllMocks());
  const run = async (argv: string[]) => {
    let err = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
    const code = await main(argv);
    return { code, err };
  };
  it.each([
    [[], /--url is required/],
    [['--url', 'http://127.0.0.1:1/x.m3u8', '--player', 'vlc'], /--player must be hls or dash/],
    [['--url', 'http://127.0.0.1:1/x.m3u8', '--seconds', 'abc'], /--seconds must be/],
    [['--url', 'http://127.0.0.1:1/x.m3u8', '--bogus'], /Unknown option '--bogus'/],
    [['--url', 'nope'], /url is not an absolute URL/],
    [['--url', 'http://127.0.0.1:1/x.m3u8', '--append-ms=-1'], /appendMs must be a number in \[0, 1000\]/],
    [['--url', 'http://127.0.0.1:1/x.m3u8', '--append-ms', 'abc'], /appendMs must be a number in \[0, 1000\]/],
  ])('%j is one line with a code on stderr, exit 2', async (argv, message) => {
    const { code, err } = await run(argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err).toMatch(/^ethle-vplayer: ERR_VPLAYER_CONFIG: /);
    expect(err.trimEnd().split('\n')).toHaveLength(1);
  });
  it('a server that refuses is ERR_VPLAYER_HTTP, not a stack trace', async () => {
    // Port 1 on loopback: nothing listens there (connection refused at once).
    const { code, err } = await run(['--url', 'http://127.0.0.1:1/live/x/index.m3u8', '--seconds', '1']);
    expect(code).toBe(2);
    expect(err).toMatch(/^ethle-vplayer: ERR_VPLAYER_HTTP: GET http:\/\/127\.0\.0\.1:1\/live\/x\/index\.m3u8 failed/);
    expect(err.trimEnd().split('\n')).toHaveLength(1);
  });
});
