import { describe, expect, it } from 'vitest';
import { loadManifest, startRepresentation, START_ESTIMATE_BPS } from '@ethle/core';

// The Representation a DASH player starts an adaptation set on with default settings (dash.js:
// the highest @bandwidth within 1000 kbit/s for video, 100 kbit/s otherwise, else the lowest):
// the one the edge prefetches before any receiver asked for a segment.

const video = (bandwidth: number) => ({ bandwidth, mimeType: 'video/mp4', contentType: undefined });
const audio = (bandwidth: number) => ({ bandwidth, mimeType: undefined, contentType: 'audio' });

describe('startRepresentation', () => {
  it('the highest within the start estimate, else the lowest, whatever the order', () => {
    expect(startRepresentation([video(50e6), video(15e6)])).toBe(1);
    expect(startRepresentation([video(3e6), video(900e3), video(500e3)])).toBe(1);
    expect(startRepresentation([video(START_ESTIMATE_BPS.video)])).toBe(0);
    expect(startRepresentation([audio(128e3), audio(64e3), audio(192e3)])).toBe(1);
    expect(startRepresentation([audio(128e3), audio(192e3)])).toBe(0);
    expect(startRepresentation([])).toBeUndefined();
  });
});

const mpd = (sets: string) => `<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-11-22T00:00:00Z" minimumUpdatePeriod="PT2S" profiles="urn:mpeg:dash:profile:isoff-live:2011">
  <Period id="p0" start="PT0S">${sets}
  </Period>
</MPD>`;
const set = (id: string | undefined, mime: string, reps: string[]) => `
    <AdaptationSet${id === undefined ? '' : ` id="${id}"`} mimeType="${mime}">
      <SegmentTemplate timescale="1000" duration="2000" media="$RepresentationID$_$Number$.m4s" initialization="$RepresentationID$_init.mp4" startNumber="0"/>
      ${reps.join('\n      ')}
    </AdaptationSet>`;
const rep = (id: string, bps: number) => `<Representation id="${id}" bandwidth="${bps}"/>`;
const opts = {
  manifestUrl: 'http://o.test/live/master.mpd',
  originBase: 'http://o.test',
  edgePathPrefix: '',
  routing: 'edge' as const,
  nowMs: Date.parse('2026-11-22T00:10:00Z'),
  previousCarry: undefined,
};

describe('loadManifest: a DASH ladder', () => {
  it('lists every Representation with its set and the start choice; the advertised s_seg is the start choices’', () => {
    const view = loadManifest(
      mpd(set('0', 'video/mp4', [rep('15M', 15e6), rep('50M', 50e6)]) + set('1', 'audio/mp4', [rep('a', 32e3)])),
      opts,
    );
    expect(view.ladder).toEqual([
      { track: 'p0/15M', set: '0', bandwidthBps: 15e6, start: true },
      { track: 'p0/50M', set: '0', bandwidthBps: 50e6, start: false },
      { track: 'p0/a', set: '1', bandwidthBps: 32e3, start: true },
    ]);
    expect(view.bitrateHintBps).toBe(15_032_000);
    // The ladder's tracks are the segments' tracks.
    expect(new Set(view.segments(opts.nowMs).map((s) => s.track))).toEqual(new Set(['p0/15M', 'p0/50M', 'p0/a']));
  });

  it('no ladder when every set has one Representation (two id-less audio sets stay two sets), the hint as before', () => {
    const view = loadManifest(
      mpd(
        set(undefined, 'video/mp4', [rep('v', 15e6)]) +
          set(undefined, 'audio/mp4', [rep('en', 64e3)]) +
          set(undefined, 'audio/mp4', [rep('fr', 96e3)]),
      ),
      opts,
    );
    expect(view.ladder).toBeUndefined();
    // Sets without @id of one mime type are alternatives (a player plays one language): the highest counts.
    expect(view.bitrateHintBps).toBe(15_096_000);
  });
});
