import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import type { ResultSet, RunResult } from '@ethle/player-demo';

// The experiments' HTML report (`renderReport`, written next to every results set) must open from
// disk, as a researcher opens it: one file, no server. Chromium refuses module scripts from file://,
// so the report inlines them; this checks the charts and Table II really render from a file URL.

/** A run as the experiments write it, with just the fields the dashboard reads. */
function run(scheme: string, hold: number, stallMs: number): RunResult {
  const t0 = 1_800_000_000_000;
  const segments = Array.from({ length: 20 }, (_, i) => ({
    kind: 'media',
    url: `http://edge.test/live/15M-2s/${100 + i}.m4s`,
    requestStart: t0 + i * 2000,
    lastByte: t0 + i * 2000 + 900 + i * 20,
    bytes: 3_700_000,
    throughputBps: (3_700_000 * 8) / (0.9 + i * 0.02),
  }));
  return {
    v: 1,
    id: `15M-2s-224ms-lte-a-${scheme}-hls-r1`,
    startedAt: new Date(t0).toISOString(),
    scenario: { stream: '15M-2s', player: 'hls', scheme, hold, rttMs: 224, ran: 'lte-a', repeat: 1, durationS: 40 },
    report: {
      startupMs: 3000 + stallMs,
      stalls: {
        count: stallMs ? 1 : 0,
        totalMs: stallMs,
        list: stallMs ? [{ start: t0 + 10_000, end: t0 + 10_000 + stallMs, durationMs: stallMs }] : [],
      },
      latency: { current: 10 + hold * 2, mean: 10 + hold * 2 },
      holdSeconds: hold * 2,
      latencySeries: Array.from({ length: 20 }, (_, i) => ({
        at: t0 + i * 2000,
        trueLatency: 10 + hold * 2 + i * 0.01,
        edgeDistance: 6,
        holdSeconds: hold * 2,
      })),
      segments: { count: segments.length, bytes: segments.length * 3_700_000, list: segments },
    },
  } as RunResult;
}

test('a rendered report opens from disk and draws its charts and Table II', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'ethle-report-'));
  try {
    const { renderReport } = (await import('../../packages/player-demo/scripts/renderReport.mjs')) as {
      renderReport: (s: ResultSet, out: string) => string;
    };
    const set: ResultSet = { v: 1, title: 'report test', runs: [run('e2e', 0, 2500), run('auto', 2, 0)] };
    const html = renderReport(set, dir);
    const blocked: string[] = [];
    page.on('console', (m) => m.type() === 'error' && blocked.push(m.text()));
    await page.goto(pathToFileURL(html).href);
    await page.waitForFunction(() => (window as any).dashboard?.charts?.length === 3, undefined, { timeout: 15_000 });
    expect(await page.textContent('#title')).toBe('report test');
    const schemes = await page.$$eval('#table tbody tr td:nth-child(2)', (tds) => tds.map((td) => td.textContent));
    expect(schemes.sort()).toEqual(['auto', 'e2e']);
    expect(blocked).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('renderReport: a missing, non-JSON or non-results input is one line with a code, exit 2, and no report', () => {
  const root = new URL('../..', import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'ethle-report-'));
  try {
    const cases: [string, RegExp][] = [
      ['e2e/no-such-results.json', /^renderReport: ERR_REPORT_INPUT: cannot read e2e\/no-such-results\.json \(ENOENT\)$/],
      ['README.md', /^renderReport: ERR_REPORT_INPUT: README\.md is not JSON/],
      ['package.json', /^renderReport: ERR_REPORT_INPUT: package\.json is not a results set: expected \{"v": 1, "runs": \[\.\.\.\]\}/],
    ];
    for (const [input, message] of cases) {
      const r = spawnSync(process.execPath, ['packages/player-demo/scripts/renderReport.mjs', input, dir], { cwd: root, encoding: 'utf8' });
      expect(r.status, input).toBe(2);
      expect(r.stderr.trim().split('\n'), input).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(message);
      expect(existsSync(join(dir, 'index.html'))).toBe(false);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('renderReport() refuses a run without id, scenario and report', async () => {
  const { renderReport } = (await import('../../packages/player-demo/scripts/renderReport.mjs')) as {
    renderReport: (s: unknown, out: string) => string;
  };
  const dir = mkdtempSync(join(tmpdir(), 'ethle-report-'));
  try {
    expect(() => renderReport({ v: 1, runs: [{ id: 'x' }] }, dir)).toThrow(
      expect.objectContaining({ code: 'ERR_REPORT_INPUT', message: expect.stringMatching(/runs\[0\] is not a run/) }),
    );
    expect(existsSync(join(dir, 'index.html'))).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
