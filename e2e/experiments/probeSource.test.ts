import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOrigin, TABLE_I_BYTES, type LiveOrigin } from '@ethle/live-origin';
import { probeSource, sourceName } from './probeSource.js';
import { matrix, scenarioId } from './Scenario.js';
import { sourceFigures } from './sourceFigures.js';

// A live source on this machine: the testbed's own origin, two renditions of 2 s segments.
let source: LiveOrigin;
beforeAll(async () => {
  source = await startOrigin({ port: 0, streams: ['15M-2s', '50M-2s'] });
});
afterAll(() => source.close());

const base = { rtt: '224', stream: '15M-2s', ran: 'lte-a', scheme: 'e2e,auto', repeats: 1, durationS: 60, player: '' };

describe('--source: the user’s own live stream', () => {
  it('probes a media playlist: segment length and the newest segment’s size', async () => {
    const p = await probeSource(`${source.url}/live/15M-2s/index.m3u8`);
    expect(p).toEqual({ kind: 'hls', segmentSeconds: 2, segmentBytes: TABLE_I_BYTES['15M-2s'], mediaPath: '/live/15M-2s/index.m3u8' });
  });

  it('a multivariant playlist is probed at its highest-bandwidth variant; an MPD at its largest track', async () => {
    expect(await probeSource(`${source.url}/live/master.m3u8`)).toMatchObject({
      kind: 'hls',
      segmentBytes: TABLE_I_BYTES['50M-2s'],
      mediaPath: '/live/50M-2s/index.m3u8',
    });
    expect(await probeSource(`${source.url}/live/50M-2s/manifest.mpd`)).toMatchObject({
      kind: 'dash',
      segmentSeconds: 2,
      segmentBytes: TABLE_I_BYTES['50M-2s'],
    });
  });

  it('a source that is not there, not a manifest or not http is refused before any testbed, with a code', async () => {
    await expect(probeSource('http://127.0.0.1:9/x.m3u8')).rejects.toMatchObject({ code: 'ERR_SOURCE_UNREACHABLE' });
    await expect(probeSource(`${source.url}/stats`)).rejects.toMatchObject({ code: 'ERR_SOURCE_MANIFEST' });
    await expect(probeSource('https://example.org/x.m3u8')).rejects.toMatchObject({ code: 'ERR_SOURCE_URL' });
  });

  it('runs are named after the source, play what its manifest is, and refuse what needs the testbed origin', () => {
    const [hls] = matrix({ ...base, source: 'http://127.0.0.1:8000/out/stream.m3u8' });
    expect(hls).toMatchObject({ stream: 'src-stream', player: 'hls', source: { url: 'http://127.0.0.1:8000/out/stream.m3u8' } });
    expect(scenarioId(hls!)).toBe('src-stream-224ms-lte-a-e2e-hls-r1');
    expect(matrix({ ...base, source: 'http://h:1/live/manifest.mpd' })[0]).toMatchObject({ stream: 'src-manifest', player: 'dash' });
    expect(matrix({ ...base, source: 'http://h:1/a.m3u8', sourceName: 'my-packager' })[0]!.stream).toBe('my-packager');
    expect(() => matrix({ ...base, source: 'http://h:1/a.m3u8', scheme: 'hold-paper' })).toThrow(/hold-paper/);
    expect(() => matrix({ ...base, source: 'http://h:1/a.m3u8', ll: true })).toThrow(/--ll/);
    expect(() => matrix({ ...base, source: 'ftp://h/a.m3u8' })).toThrow(/http:\/\//);
    expect(() => sourceName('http://h:1/a.m3u8', 'a b')).toThrow(/--source-name/);
    // Without a source nothing changes: hls.js unless --player says.
    expect(matrix(base)[0]).toMatchObject({ stream: '15M-2s', player: 'hls' });
    expect(matrix(base)[0]!.source).toBeUndefined();
  });

  it('a run’s record of the source: per track the segments, their sizes, lengths and bitrate', () => {
    const f = sourceFigures(
      'http://s/stream.m3u8',
      { kind: 'hls', segmentSeconds: 2, segmentBytes: 4e6, mediaPath: '/stream.m3u8' },
      {
        upstream: 'http://s',
        manifests: 30,
        manifestErrors: 0,
        dropped: 0,
        segments: [
          { path: '/s1.m4s', bytes: 3e6, durationSeconds: 2, track: '/stream.m3u8', fetches: 1 },
          { path: '/s2.m4s', bytes: 5e6, durationSeconds: 2, track: '/stream.m3u8', fetches: 2 },
        ],
        other: [{ path: '/init.mp4', bytes: 800, fetches: 1 }],
      },
    );
    expect(f.tracks).toEqual([
      {
        track: '/stream.m3u8',
        segments: 2,
        bytes: { mean: 4e6, min: 3e6, max: 5e6 },
        durationS: { mean: 2, min: 2, max: 2 },
        bitrateMbps: 16,
      },
    ]);
    expect(f.segments).toHaveLength(2);
  });
});
