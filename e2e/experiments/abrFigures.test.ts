import { describe, expect, it } from 'vitest';
import { abrFigures, abrTrack, renditionChanges, type RenditionSwitch } from './abrFigures.js';

const T0 = 1_700_000_000_000;
const sw = (atS: number, to: string, bitrate: number | null, track = 'main'): RenditionSwitch => ({
  at: T0 + atS * 1000,
  track,
  to,
  bitrate,
});
const TOP = 50e6;

describe('abrFigures: what a ladder run’s player rendered', () => {
  it('time per rendition from the first rendered one to the end; the top’s share; changes after the first', () => {
    const a = abrFigures({
      switches: [sw(0, '0', 15e6), sw(20, '1', 50e6), sw(80, '0', 15e6)],
      stalls: [],
      track: 'main',
      topBps: TOP,
      endMs: T0 + 100_000,
    });
    expect(a.startBps).toBe(15e6);
    expect(a.switches).toBe(2);
    expect(a.playingS).toEqual({ [String(15e6)]: 40, [String(50e6)]: 60 });
    expect(a.topShare).toBeCloseTo(0.6, 12);
    expect(a.timeline).toEqual([
      { atS: 0, bps: 15e6 },
      { atS: 20, bps: 50e6 },
      { atS: 80, bps: 15e6 },
    ]);
    expect(renditionChanges(a)).toBe('15@0s 50@20s 15@80s');
  });

  it('a stall is no rendition’s playing time, wherever it falls (also across a switch)', () => {
    const a = abrFigures({
      switches: [sw(0, '0', 15e6), sw(50, '1', 50e6)],
      // 10 s inside the low rendition, 10 s straddling the switch (5 s each side).
      stalls: [
        { start: T0 + 10_000, end: T0 + 20_000 },
        { start: T0 + 45_000, end: T0 + 55_000 },
      ],
      track: 'main',
      topBps: TOP,
      endMs: T0 + 100_000,
    });
    expect(a.playingS).toEqual({ [String(15e6)]: 35, [String(50e6)]: 45 });
    expect(a.topShare).toBeCloseTo(45 / 80, 12);
  });

  it('dash.js: only the video track counts (audio has its own quality events); a repeated rendition is no switch', () => {
    const a = abrFigures({
      switches: [
        sw(0, 'a32k', 32e3, 'audio'),
        sw(0.2, '15M-2s', 15e6, 'video'),
        sw(30, '15M-2s', 15e6, 'video'),
        sw(60, '50M-2s', 50e6, 'video'),
      ],
      stalls: [],
      track: abrTrack('dash'),
      topBps: TOP,
      endMs: T0 + 100_200,
    });
    expect(a.track).toBe('video');
    expect(a.switches).toBe(1);
    expect(a.topShare).toBeCloseTo(40.2 / 100, 12);
    expect(abrTrack('hls')).toBe('main');
  });

  it('all the time at the top is 1; never at it is 0; an unknown bitrate is not the top', () => {
    const at = (s: RenditionSwitch[]) => abrFigures({ switches: s, stalls: [], track: 'main', topBps: TOP, endMs: T0 + 60_000 }).topShare;
    expect(at([sw(0, '1', 50e6)])).toBe(1);
    expect(at([sw(0, '0', 15e6)])).toBe(0);
    expect(at([sw(0, '1', null)])).toBe(0);
  });

  it('a player that never rendered has no start, no share and no switches (not a share of 0)', () => {
    const a = abrFigures({ switches: [], stalls: [], track: 'main', topBps: TOP, endMs: T0 });
    expect(a).toMatchObject({ startBps: null, topShare: null, switches: 0, timeline: [] });
    expect(renditionChanges(a)).toBe('');
    // Events after the end of the measurement do not count.
    expect(abrFigures({ switches: [sw(5, '0', 15e6)], stalls: [], track: 'main', topBps: TOP, endMs: T0 }).startBps).toBeNull();
  });
});
