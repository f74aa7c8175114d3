import { describe, expect, it } from 'vitest';
import { DASH_DEFAULTS, HLS_DEFAULTS } from '../src/config/createVirtualPlayerConfig.js';
import { dashLiveDelay } from '../src/dash/dashLiveDelay.js';
import { hlsLiveSyncPosition } from '../src/hls/hlsLiveSyncPosition.js';
import { hlsNextReload, hlsReloadInterval } from '../src/hls/hlsReloadInterval.js';

describe('hls.js start position (liveSyncPosition)', () => {
  it('is liveSyncDurationCount target durations behind the edge it saw, plus the playlist age', () => {
    const base = { edge: 120, totalDuration: 60, targetDuration: 2, liveSyncDurationCount: HLS_DEFAULTS.liveSyncDurationCount };
    expect(hlsLiveSyncPosition({ ...base, ageSeconds: 0 })).toBe(114);
    expect(hlsLiveSyncPosition({ ...base, ageSeconds: 0.4 })).toBeCloseTo(114.4);
  });
  it('stays within [edge − totalduration, edge − targetduration]', () => {
    expect(hlsLiveSyncPosition({ edge: 10, totalDuration: 4, targetDuration: 2, liveSyncDurationCount: 3, ageSeconds: 0 })).toBe(6);
    expect(hlsLiveSyncPosition({ edge: 10, totalDuration: 60, targetDuration: 2, liveSyncDurationCount: 3, ageSeconds: 9 })).toBe(8);
  });
});

describe('hls.js playlist reload cadence', () => {
  it('one target duration after a changed playlist, half of it after an unchanged one', () => {
    expect(hlsReloadInterval({ targetDuration: 4, lastSegmentDuration: 4, updated: true, distanceToLiveEdgeMs: 12_000 })).toBe(4000);
    expect(hlsReloadInterval({ targetDuration: 4, lastSegmentDuration: 4, updated: false, distanceToLiveEdgeMs: 12_000 })).toBe(2000);
  });
  it('the last segment duration when shorter and near the edge', () => {
    expect(hlsReloadInterval({ targetDuration: 4, lastSegmentDuration: 3, updated: true, distanceToLiveEdgeMs: 12_000 })).toBe(3000);
    expect(hlsReloadInterval({ targetDuration: 4, lastSegmentDuration: 3, updated: true, distanceToLiveEdgeMs: 20_000 })).toBe(4000);
  });
  it('schedules from the previous schedule, not from when the load finished', () => {
    expect(hlsNextReload(1000, 2000, 1300)).toBe(3000);
    expect(hlsNextReload(1000, 2000, 3500)).toBe(3500); // already late: now
  });
});

describe('dash.js live delay', () => {
  const mpd = { fragmentDuration: 2, suggestedPresentationDelay: 6, timeShiftBufferDepth: 120 };
  it('defaults to the MPD suggestedPresentationDelay (liveDelayFragmentCount is NaN in dash.js 5)', () => {
    expect(dashLiveDelay(DASH_DEFAULTS, mpd)).toBe(6);
  });
  it('without one, 4 fragment durations', () => {
    expect(dashLiveDelay(DASH_DEFAULTS, { ...mpd, suggestedPresentationDelay: undefined })).toBe(8);
  });
  it('the settings win in dash.js order, and the DVR window caps it', () => {
    expect(dashLiveDelay({ ...DASH_DEFAULTS, liveDelayFragmentCount: 2 }, mpd)).toBe(4);
    expect(dashLiveDelay({ ...DASH_DEFAULTS, liveDelay: 3, liveDelayFragmentCount: 2 }, mpd)).toBe(3);
    expect(dashLiveDelay({ ...DASH_DEFAULTS, liveDelay: 300 }, mpd)).toBe(120);
  });
});
