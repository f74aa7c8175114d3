import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeRuns, RUNS_COLUMNS, SUMMARY_COLUMNS, toCsv, type MergedRun } from './mergeRuns.js';
import { summarize } from './summarize.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function run(id: string, scheme: string, startupS: number, o: { invalid?: string; x?: number; measured?: number } = {}): MergedRun {
  return {
    v: 1,
    id,
    startedAt: '2026-11-27T00:00:00.000Z',
    scenario: { stream: '50M-2s', player: 'hls', scheme, rttMs: 224, durationS: 60, ran: 'lte-a', receiver: 'virtual', cc: 'cubic' },
    report: {
      startupMs: startupS * 1000,
      stalls: { count: 0, totalMs: 0, list: [] },
      latency: { current: 10, mean: 10 },
      holdSeconds: 0,
      latencySeries: [],
      segments: { count: 0, bytes: 0, list: [] },
    },
    ...(o.x !== undefined ? { edge: { x: o.x, measuredBackhaulMbps: o.measured, measuredBackhaulFetches: 10 } } : {}),
    ...(o.invalid ? { invalid: o.invalid, validity: { failed: ['unmodelled-drops'] } } : {}),
  };
}

describe('summarize: a results directory in the one summary format', () => {
  it('summary.csv, runs.csv and tables.md as a merge writes them; an invalid run counted, never averaged, kept for the report', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ethle-summarize-'));
    dirs.push(dir);
    const runs = [
      run('a1', 'auto', 2, { x: 3, measured: 20 }),
      run('a2', 'auto', 4, { x: 3, measured: 30 }),
      run('a3', 'auto', 50, { x: 4, measured: 5, invalid: 'unmodelled drop: backhaul down lost 2791 packets' }),
      run('e1', 'e2e', 6),
    ];
    for (const r of runs) writeFileSync(join(dir, `${r.id}.json`), JSON.stringify(r));
    const set = summarize(dir)!;
    const m = mergeRuns(runs.map((r) => ({ run: r, source: dir.split('/').at(-1)! })));
    expect(readFileSync(join(dir, 'summary.csv'), 'utf8')).toBe(toCsv(SUMMARY_COLUMNS, m.summary));
    expect(readFileSync(join(dir, 'runs.csv'), 'utf8')).toBe(toCsv(RUNS_COLUMNS, m.runs));
    const auto = m.summary.find((r) => r.scheme === 'auto')!;
    expect(auto).toMatchObject({ runs: 2, invalid: 1, startup_s: '3.00±12.71', x: '3' });
    const tables = readFileSync(join(dir, 'tables.md'), 'utf8');
    expect(tables).toContain(`| ${SUMMARY_COLUMNS.join(' | ')} |`);
    expect(tables).toContain('| auto | 2 | 1 |');
    // Table III: the auto backhaul rate over the valid runs only (20 and 30, not the invalid 5).
    const t3 = JSON.parse(readFileSync(join(dir, 'tableIII.json'), 'utf8')) as { measuredAutoMbps: number; autoX: string }[];
    expect(t3[0]).toMatchObject({ measuredAutoMbps: 25, autoX: '3/3' });
    // The HTML report gets every run, the invalid one marked, and says how many were left out.
    expect(set.runs.filter((r) => r.invalid)).toHaveLength(1);
    expect(set.title).toMatch(/4 runs, 1 invalid/);
    expect(readFileSync(join(dir, 'counts.csv'), 'utf8')).toContain('auto,3,2,1');
  });

  it('a ladder run is summarised with its share at the top; Table III models single streams only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ethle-summarize-'));
    dirs.push(dir);
    const ladder: MergedRun = {
      ...run('l1', 'auto', 3, { x: 2 }),
      abr: { topShare: 0.75, switches: 2, timeline: [] },
    };
    ladder.scenario = { ...ladder.scenario, stream: '15M+50M-2s', receiver: 'chromium' };
    for (const r of [ladder, run('a1', 'auto', 2, { x: 3, measured: 20 })]) writeFileSync(join(dir, `${r.id}.json`), JSON.stringify(r));
    summarize(dir);
    expect(readFileSync(join(dir, 'summary.csv'), 'utf8')).toMatch(
      /^15M\+50M-2s @ 224 ms \(cubic\) \[chromium\],224,15M\+50M-2s,auto,1,0,.*,0\.75,2\.00$/m,
    );
    const t3 = JSON.parse(readFileSync(join(dir, 'tableIII.json'), 'utf8')) as { stream: string }[];
    expect(t3.map((r) => r.stream)).toEqual(['50M-2s']);
  });
});
