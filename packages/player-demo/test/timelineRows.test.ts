import { describe, expect, it } from 'vitest';
import type { EdgeTimeline, EdgeTimelineSegment } from '../src/timeline/TimelineData.js';
import { STALL_ROWS, timelineRows } from '../src/timeline/timelineRows.js';
import { describeDelta } from '../src/ui/describeDelta.js';

// The edge's timeline (its JSON shape) and the probes' downloads → the chart's rows and bars.
const NOW = 100_000;
function seg(track: string, id: number, o: Partial<EdgeTimelineSegment> = {}): EdgeTimelineSegment {
  return {
    track,
    id,
    path: `/live/s/${track}/${id}.m4s`,
    durationS: 2,
    listedAt: id * 2000,
    requests: 0,
    fetchStart: id * 2000 + 10,
    fetchEnd: id * 2000 + 60,
    productionStart: id * 2000 - 2000,
    productionEnd: id * 2000,
    ...o,
  };
}
function timeline(segments: EdgeTimelineSegment[]): EdgeTimeline {
  return {
    v: 1,
    stream: 'origin/live/s/manifest.mpd',
    now: NOW,
    hold: 2,
    segmentSeconds: 2,
    held: { v: 2, a: 2 },
    lead: { v: 1, a: 0 },
    segments,
  };
}

describe('timelineRows', () => {
  const segs = [
    ...[45, 46, 47, 48, 49].map((id) => seg('v', id, id >= 48 ? { held: true } : { visibleAt: (id + 2) * 2000 })),
    ...[45, 46, 47, 48, 49].map((id) => seg('a', id)),
  ];
  const edge = [{ path: 'http://edge:8080/live/s/v/46.m4s?CMCD=x', requestStart: 93_000, lastByte: 93_100 }];
  const direct = [{ path: 'http://origin:8081/live/s/v/47.m4s', requestStart: 95_000, lastByte: 95_300 }];

  it('draws the video track the edge player fetches, newest first, in seconds before now', () => {
    const r = timelineRows(timeline(segs), { direct, edge }, { direct: [], edge: [], outage: [] }, NOW);
    expect(r.track).toBe('v');
    expect(r.rows).toEqual(['#49', '#48', '#47', '#46', '#45', STALL_ROWS.outage, STALL_ROWS.direct, STALL_ROWS.edge]);
    expect(r.held).toBe(2);
    expect(r.lead).toBe(1);
    // Held segments' bars run to now; a visible one's ends when it became visible.
    const held = r.bars['held at the edge (listed → visible)'];
    expect(held.find((b) => b.row === '#49')).toEqual({ row: '#49', from: -2, to: 0 });
    expect(held.find((b) => b.row === '#45')).toEqual({ row: '#45', from: -10, to: -6 });
    // Player downloads land on their segment's row, matched by path (origin or edge, any query).
    expect(r.bars['edge player: request → received']).toEqual([{ row: '#46', from: -7, to: -6.9 }]);
    expect(r.bars['direct player: request → received']).toEqual([{ row: '#47', from: -5, to: -4.7 }]);
    expect(r.bars['produced at the origin'].find((b) => b.row === '#49')).toEqual({ row: '#49', from: -4, to: -2 });
  });

  it('puts stalls and outages on their own rows; one still going ends at now', () => {
    const r = timelineRows(
      timeline(segs),
      { direct, edge },
      { direct: [{ start: 96_000 }], edge: [], outage: [{ start: 94_000, end: 99_000 }] },
      NOW,
    );
    expect(r.bars['stalls / outage']).toEqual([
      { row: STALL_ROWS.direct, from: -4, to: 0 },
      { row: STALL_ROWS.outage, from: -6, to: -1 },
    ]);
  });

  it('rows run without gaps from the oldest segment active in the window to the newest, at most `segments`', () => {
    const idle = (id: number) =>
      seg('v', id, { fetchStart: undefined, fetchEnd: undefined, productionStart: undefined, productionEnd: undefined });
    // 44 is older than any activity: no row. 47 saw nothing but sits between active ones: a row.
    const list = [idle(44), ...segs.filter((g) => g.id !== 47), idle(47)].sort((a, b) => a.track.localeCompare(b.track) || a.id - b.id);
    const r = timelineRows(timeline(list), { direct: [], edge }, { direct: [], edge: [], outage: [] }, NOW);
    expect(r.rows.slice(0, -3)).toEqual(['#49', '#48', '#47', '#46', '#45']);
    // Activity older than the window does not count: a 2 s window keeps the held ones only.
    expect(timelineRows(timeline(list), { direct: [], edge: [] }, { direct: [], edge: [], outage: [] }, NOW, 2).rows.slice(0, -3)).toEqual([
      '#49',
      '#48',
    ]);
    expect(timelineRows(timeline(segs), { direct, edge }, { direct: [], edge: [], outage: [] }, NOW, 24, 3).rows.slice(0, -3)).toEqual([
      '#49',
      '#48',
      '#47',
    ]);
  });
});

describe('describeDelta', () => {
  it('explains the difference with the hold, signed', () => {
    expect(describeDelta(7.5, 11.6, { segments: 2, segmentSeconds: 2 })).toBe('+4.1 s (x = 2 × 2 s = 4.0 s held)');
    expect(describeDelta(11.4, 11.2, undefined)).toBe('−0.2 s');
    // Stalls, not the hold, make the difference: the direct player stalled 1.5 s longer.
    expect(describeDelta(9.0, 11.5, { segments: 2, segmentSeconds: 2 }, { direct: 1.5, edge: 0 })).toBe(
      '+2.5 s (x = 2 × 2 s = 4.0 s held; −1.5 s: the direct player stalled that much longer)',
    );
    // The direct player stalled 11.3 s in an outage the edge rode out: the edge column is now ahead.
    expect(describeDelta(19.4, 12.0, { segments: 2, segmentSeconds: 2 }, { direct: 11.3, edge: 0 })).toBe(
      '−7.4 s (x = 2 × 2 s = 4.0 s held; −11.3 s: the direct player stalled that much longer)',
    );
    // The edge player stalled; and what neither explains is named.
    expect(describeDelta(8, 14.5, { segments: 2, segmentSeconds: 2 }, { direct: 0, edge: 1.0 })).toBe(
      "+6.5 s (x = 2 × 2 s = 4.0 s held; +1.0 s: the edge player stalled that much longer; +1.5 s: the players' own live offsets)",
    );
    // Stall times alike: the hold alone, as before.
    expect(describeDelta(7.5, 11.6, { segments: 2, segmentSeconds: 2 }, { direct: 0.2, edge: 0 })).toBe(
      '+4.1 s (x = 2 × 2 s = 4.0 s held)',
    );
    expect(describeDelta(null, 3, undefined)).toBeNull();
  });
});
