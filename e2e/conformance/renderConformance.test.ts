import { describe, expect, it } from 'vitest';
import { judgeRow, type SessionResult } from './judgeRow.js';
import { renderConformance } from './renderConformance.js';
import { playersOf, SHAPES, type Player, type Via } from './SHAPES.js';

const session = (via: Via, group: number): SessionResult => ({
  via,
  group,
  playedS: 30,
  latencyS: via === 'hold-2' ? 10 : 6,
  probeLagS: null,
  startupS: 1,
  stalls: 0,
  fatalErrors: [],
  originRequests: [],
  edgeSegments: via === 'direct' ? 0 : 20,
  holds: via === 'direct' ? [] : [via === 'hold-2' ? 4 : 0],
});
const VIAS: Via[] = ['direct', 'hold-0', 'hold-2'];
const rowOf = (player: Player, id: string) =>
  judgeRow(
    player,
    SHAPES.find((s) => s.id === id)!,
    VIAS,
    [0, 1, 2].flatMap((g) => VIAS.map((v) => session(v, g))),
    { 'hold-0': { lags: Array(20).fill(0.5) }, 'hold-2': { lags: Array(20).fill(4.5) } },
    30,
    2,
  );
const OPTIONS = {
  seconds: 30,
  groups: 3,
  date: '2026-01-01',
  command: 'npm run conformance',
  versions: 'v',
  load: '1.0–2.0',
  limitations: {},
};

describe('renderConformance', () => {
  it('lists the rows a run left out, and only those', () => {
    const doc = renderConformance([...rowOf('shaka', 'dash-timeline'), ...rowOf('dash', 'dash-timeline')], OPTIONS);
    const notRun = doc.split('## Rows not run')[1]!.split('## Results')[0]!;
    expect(notRun).toContain('`Shaka · dash-number`');
    expect(notRun).toContain('`hls.js · ll-hls-master`');
    expect(notRun).not.toContain('dash-timeline');
    expect(doc).toContain('6 cells: 6 pass');
  });

  it('has no such section when every row ran', () => {
    const all = SHAPES.flatMap((s) => playersOf(s).flatMap((p) => rowOf(p, s.id)));
    expect(renderConformance(all, OPTIONS)).not.toContain('## Rows not run');
  });

  it('orders the table as the matrix (shape, its players, their vias), whatever order the parts ran in', () => {
    const doc = renderConformance([...rowOf('shaka', 'dash-list'), ...rowOf('dash', 'dash-number').reverse()], OPTIONS);
    const table = doc
      .split('\n')
      .filter((l) => l.startsWith('| dash.js') || l.startsWith('| Shaka'))
      .map((l) => l.split(' | ').slice(0, 3).join(' '));
    expect(table).toEqual([
      '| dash.js dash-number (`/live/2M-2s/manifest.mpd`) direct',
      '| dash.js dash-number (`/live/2M-2s/manifest.mpd`) hold-0',
      '| dash.js dash-number (`/live/2M-2s/manifest.mpd`) hold-2',
      '| Shaka dash-list (`/live/2M-2s/list.mpd`) direct',
      '| Shaka dash-list (`/live/2M-2s/list.mpd`) hold-0',
      '| Shaka dash-list (`/live/2M-2s/list.mpd`) hold-2',
    ]);
  });
});
