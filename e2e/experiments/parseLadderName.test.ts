import { describe, expect, it } from 'vitest';
import { ladderManifestPath, parseLadderName, renditionOfPath } from './parseLadderName.js';
import { matrix, scenarioId } from './Scenario.js';

describe('parseLadderName: an ABR ladder of the origin’s streams', () => {
  it('15M+50M-2s: the two streams of 2 s segments, lowest first, the top one’s Table I size', () => {
    const l = parseLadderName('15M+50M-2s')!;
    expect(l.renditions.map((r) => r.name)).toEqual(['15M-2s', '50M-2s']);
    expect(l.segmentSeconds).toBe(2);
    expect(l.top).toMatchObject({ name: '50M-2s', bitrateMbps: 50, segmentBytes: 12.2e6 });
    expect(parseLadderName('2M+15M+50M-4s')!.renditions.map((r) => r.name)).toEqual(['2M-4s', '15M-4s', '50M-4s']);
  });

  it('a single stream, bitrates not ascending, another segment length or junk is no ladder', () => {
    for (const bad of ['15M-2s', '50M+15M-2s', '15M+15M-2s', '15M+50M-3s', '15M+50M', '+15M-2s', '15M+0M-2s', '15M+50M-2s ', 'ladder-2s'])
      expect(parseLadderName(bad), bad).toBeUndefined();
  });

  it('the players load the ladder’s manifest by the path the edge forwards without a query', () => {
    const l = parseLadderName('15M+50M-4s')!;
    expect(ladderManifestPath(l, 'hls')).toBe('/live/master-4s.m3u8');
    expect(ladderManifestPath(l, 'dash')).toBe('/live/master-4s.mpd');
  });

  it('a segment path’s rendition: HLS and DASH video by directory; DASH audio and other streams are none', () => {
    const l = parseLadderName('15M+50M-2s')!;
    expect(renditionOfPath(l, '/live/50M-2s/1234.m4s')).toBe('50M-2s');
    expect(renditionOfPath(l, '/live/15M-2s/dash/v/1234.m4s')).toBe('15M-2s');
    expect(renditionOfPath(l, '/live/15M-2s/dash/a/1234.m4s')).toBeUndefined();
    expect(renditionOfPath(l, '/live/50M-4s/1234.m4s')).toBeUndefined();
  });
});

describe('matrix: a ladder stream', () => {
  const base = {
    rtt: '224,334',
    stream: '15M+50M-2s',
    ran: 'lte-a',
    scheme: 'e2e,auto',
    repeats: 3,
    durationS: 120,
    player: 'hls,dash',
    cc: 'cubic',
  };

  it('runs in Chromium with hls.js and dash.js, named by the ladder', () => {
    const runs = matrix(base);
    expect(runs).toHaveLength(2 * 2 * 3 * 2);
    expect(new Set(runs.map((s) => s.player))).toEqual(new Set(['hls', 'dash']));
    expect(runs.every((s) => s.receiver === undefined)).toBe(true); // Chromium, the default
    expect(scenarioId(runs[0]!)).toBe('15M+50M-2s-224ms-lte-a-cubic-e2e-hls-r1');
  });

  it('is refused with the virtual receiver (no ABR), with --ll, with hold-paper, or misnamed', () => {
    expect(() => matrix({ ...base, receiver: 'virtual' })).toThrow(/ABR ladder: the virtual receiver has no ABR.*--receiver chromium/);
    expect(() => matrix({ ...base, ll: true })).toThrow(/ABR ladder: --ll/);
    expect(() => matrix({ ...base, scheme: 'e2e,hold-paper' })).toThrow(/ABR ladder: hold-paper/);
    expect(() => matrix({ ...base, stream: '50M+15M-2s' })).toThrow(/bitrates ascending/);
    // A single stream with the virtual receiver is still fine.
    expect(matrix({ ...base, stream: '15M-2s', receiver: 'virtual' })).toHaveLength(24);
  });
});
