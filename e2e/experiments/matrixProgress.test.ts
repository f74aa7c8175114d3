import { describe, expect, it } from 'vitest';
import {
  ABR_LADDER_DASH,
  ABR_LADDER_HLS,
  BBR_RECHECK,
  CUBIC_MATRIX,
  MATRICES,
  matricesProgressMarkdown,
  matrixProgress,
  matrixProgressMarkdown,
  specCell,
  type MatrixSpec,
} from './matrixProgress.js';
import type { RunRow } from './mergeRuns.js';

const row = (o: {
  receiver?: string;
  rtt?: number;
  stream?: string;
  scheme?: string;
  repeat?: number;
  invalid?: string;
  failedBars?: string;
  cell?: string;
}): RunRow => {
  const receiver = o.receiver ?? 'virtual';
  const rtt = o.rtt ?? 224;
  const stream = o.stream ?? '15M-2s';
  return {
    id: `${stream}-${rtt}-${o.scheme ?? 'e2e'}-${receiver}-r${o.repeat ?? 1}`,
    cell: o.cell ?? `${stream} @ ${rtt} ms [${receiver}]`,
    rttMs: rtt,
    stream,
    scheme: o.scheme ?? 'e2e',
    receiver,
    repeat: o.repeat ?? 1,
    startupS: 3,
    bufferingS: 0,
    stalls: 0,
    latencyS: 10,
    x: null,
    holdS: 0,
    cpuPressure: 0.1,
    throughputMbps: null,
    measuredBackhaulMbps: null,
    steadyBackhaulMbps: null,
    xChanges: '',
    stallCauses: '',
    topShare: null,
    switches: null,
    renditionChanges: '',
    originRenditions: '',
    lateP99Ms: null,
    unmodelledDrops: null,
    modelledDrops: null,
    originRetrans: null,
    inject: '',
    failedBars: o.failedBars ?? '',
    startedAt: '2026-11-26T00:00:00.000Z',
    commit: '',
    invalid: o.invalid ?? '',
    source: 'test',
  };
};

// A small matrix: 2 RTTs × 2 streams × 2 schemes × 3 repeats.
const SMALL: MatrixSpec = {
  rtts: [137, 224],
  streams: ['15M-2s', '50M-2s'],
  receivers: { virtual: { schemes: ['e2e', 'auto'], repeats: 3 } },
  durationS: 120,
};

/** Every run the commands would make, as receiver|rtt|stream|scheme|repeat. */
function expand(commands: string[]): string[] {
  const out: string[] = [];
  for (const c of commands) {
    const arg = (name: string) => new RegExp(`--${name} (\\S+)`).exec(c)![1]!;
    const [a, b] = arg('repeats').split('-').map(Number);
    for (const rtt of arg('rtt').split(','))
      for (const stream of arg('stream').split(','))
        for (const scheme of arg('scheme').split(','))
          for (let k = a!; k <= b!; k++) out.push(`${arg('receiver')}|${rtt}|${stream}|${scheme}|${k}`);
  }
  return out.sort();
}

describe('matrixProgress: what of the paper matrix is run, and the commands for the rest', () => {
  it('nothing run: one command runs the whole matrix', () => {
    const p = matrixProgress([], SMALL);
    expect(p).toMatchObject({ done: 0, total: 24 });
    expect(p.commands).toEqual([
      'EXP_VPLAYER_APPEND_MS=0 npm run experiment -- --receiver virtual --rtt 137,224 --stream 15M-2s,50M-2s --scheme e2e,auto --repeats 1-3 --duration 120',
    ]);
  });

  it('the commands run exactly what is missing: no run twice, none that is there', () => {
    const rows = [
      row({ rtt: 224, stream: '15M-2s', scheme: 'e2e', repeat: 1 }),
      row({ rtt: 224, stream: '15M-2s', scheme: 'e2e', repeat: 2 }),
      row({ rtt: 224, stream: '15M-2s', scheme: 'auto', repeat: 1 }),
      row({ rtt: 137, stream: '50M-2s', scheme: 'auto', repeat: 3 }),
      // Counted once however often it ran.
      row({ rtt: 137, stream: '50M-2s', scheme: 'auto', repeat: 3 }),
    ];
    const p = matrixProgress(rows, SMALL);
    expect(p.done).toBe(4);
    const want: string[] = [];
    for (const rtt of SMALL.rtts)
      for (const stream of SMALL.streams)
        for (const scheme of ['e2e', 'auto'])
          for (let k = 1; k <= 3; k++)
            if (!rows.some((r) => r.rttMs === rtt && r.stream === stream && r.scheme === scheme && r.repeat === k))
              want.push(`virtual|${rtt}|${stream}|${scheme}|${k}`);
    expect(expand(p.commands)).toEqual(want.sort());
    expect(p.commands.length).toBeLessThan(want.length);
  });

  it('invalid runs, other cells (another RAN, dash.js) and other receivers do not count', () => {
    const p = matrixProgress(
      [
        row({ repeat: 1, invalid: 'relay late' }),
        row({ repeat: 2, cell: '15M-2s @ 224 ms [virtual, dash.js]' }),
        row({ repeat: 3, cell: '15M-2s @ 224 ms, lte-a-loss [virtual]' }),
        row({ repeat: 1, receiver: 'chromium' }),
      ],
      SMALL,
    );
    expect(p.done).toBe(0);
  });

  it('a cell still short of repeats lists its invalid attempts and why; a complete one does not', () => {
    const p = matrixProgress(
      [
        row({ stream: '50M-2s', rtt: 137, repeat: 1, invalid: 'relay late: backhaul up p99 1.95 ms (max 9.6 ms)' }),
        row({ stream: '50M-2s', rtt: 137, repeat: 1, invalid: 'relay late: ran down p99 1.18 ms' }),
        row({ stream: '50M-2s', rtt: 137, repeat: 2 }),
        // complete despite an invalid attempt: not listed
        ...[1, 2, 3].map((k) => row({ stream: '15M-2s', rtt: 224, scheme: 'auto', repeat: k })),
        row({ stream: '15M-2s', rtt: 224, scheme: 'auto', repeat: 2, invalid: 'relay late: x' }),
        // another RAN's invalid run is not the matrix cell's attempt
        row({ stream: '15M-2s', rtt: 137, repeat: 1, invalid: 'relay late', cell: '15M-2s @ 137 ms, lte-a-loss [virtual]' }),
      ],
      SMALL,
    );
    expect(p.invalidAttempts).toEqual([
      { receiver: 'virtual', rttMs: 137, stream: '50M-2s', scheme: 'e2e', valid: 1, invalid: 2, reasons: ['relay late'] },
    ]);
    const md = matrixProgressMarkdown(p);
    expect(md).toContain('| virtual | 137 | 50M-2s | e2e | 1 | 2 | relay late |');
    expect(matrixProgressMarkdown(matrixProgress([], SMALL))).not.toContain('invalid on record');
  });

  it('the paper matrix: 480 virtual runs and a Chromium subset of 48; Markdown says what is left', () => {
    const p = matrixProgress([row({ receiver: 'chromium', scheme: 'auto' })]);
    expect(p.byReceiver).toEqual({ virtual: { done: 0, total: 480 }, chromium: { done: 1, total: 48 } });
    const md = matrixProgressMarkdown(p);
    expect(md).toContain('1 of 528');
    expect(md).toContain('--receiver chromium');
    expect(matrixProgressMarkdown(matrixProgress([], SMALL))).toContain('0 of 24');
  });

  it('the CUBIC matrix counts only CUBIC cells of the shipped virtual receiver, and its commands say so', () => {
    const cubicCell = (stream: string, rtt: number, receiver = 'virtual') => specCell(CUBIC_MATRIX, receiver, rtt, stream);
    expect(cubicCell('15M-2s', 224)).toBe('15M-2s @ 224 ms (cubic) [virtual, append 25 ms]');
    expect(cubicCell('15M-2s', 224, 'chromium')).toBe('15M-2s @ 224 ms (cubic) [chromium]');
    const p = matrixProgress(
      [
        row({ scheme: 'auto', repeat: 1, cell: cubicCell('15M-2s', 224) }),
        row({ scheme: 'auto', repeat: 1, receiver: 'chromium', cell: cubicCell('15M-2s', 224, 'chromium') }),
        // BBR, or CUBIC with the other receiver model: other cells
        row({ scheme: 'auto', repeat: 2 }),
        row({ scheme: 'auto', repeat: 3, cell: '15M-2s @ 224 ms (cubic) [virtual]' }),
      ],
      CUBIC_MATRIX,
    );
    expect(p.byReceiver).toEqual({ virtual: { done: 1, total: 4 * 6 * 4 * 3 }, chromium: { done: 1, total: 4 * 6 * 2 } });
    for (const c of p.commands) {
      expect(c).toContain('--cc cubic');
      if (c.includes('--receiver virtual')) expect(c.startsWith('EXP_VPLAYER_APPEND_MS=25 ')).toBe(true);
      else expect(c).not.toContain('EXP_VPLAYER_APPEND_MS');
    }
    const missing = expand(p.commands);
    expect(missing).toHaveLength(288 + 48 - 2);
    expect(missing).not.toContain('virtual|224|15M-2s|auto|1');
  });

  it('the BBR re-check: 224 ms, E2E and the pinned auto the BBR matrix ran, no append wait', () => {
    const p = matrixProgress([row({ scheme: 'auto-slow-start', repeat: 2 }), row({ scheme: 'auto', repeat: 1 })], BBR_RECHECK);
    expect(p).toMatchObject({ done: 1, total: 6 * 2 * 3 });
    expect(p.commands.every((c) => c.startsWith('EXP_VPLAYER_APPEND_MS=0 ') && !c.includes('--cc'))).toBe(true);
    const md = matricesProgressMarkdown([], [CUBIC_MATRIX, BBR_RECHECK]);
    expect(md.total).toBe(288 + 48 + 36);
    expect(md.markdown).toContain('## The CUBIC matrix (issue 38): what is run, what is left');
    expect(md.markdown).toContain('## The BBR re-check at 224 ms (issue 38): what is run, what is left');
  });

  it('the ABR ladder: a spec per player, dash.js runs counted in their own cells and run with --player dash', () => {
    expect(specCell(ABR_LADDER_HLS, 'chromium', 224, '15M+50M-2s')).toBe('15M+50M-2s @ 224 ms (cubic) [chromium]');
    const dashCell = specCell(ABR_LADDER_DASH, 'chromium', 334, '15M+50M-2s');
    expect(dashCell).toBe('15M+50M-2s @ 334 ms (cubic) [chromium, dash.js]');
    const dashRun = row({ receiver: 'chromium', rtt: 334, stream: '15M+50M-2s', scheme: 'auto', repeat: 2, cell: dashCell });
    expect(matrixProgress([dashRun], ABR_LADDER_DASH)).toMatchObject({ done: 1, total: 2 * 2 * 3 });
    // The same run is no hls.js run.
    expect(matrixProgress([dashRun], ABR_LADDER_HLS)).toMatchObject({ done: 0, total: 2 * 2 * 3 });
    const dash = matrixProgress([], ABR_LADDER_DASH).commands;
    expect(dash).toEqual([
      'npm run experiment -- --receiver chromium --cc cubic --player dash --rtt 224,334 --stream 15M+50M-2s --scheme e2e,auto --repeats 1-3 --duration 120',
    ]);
    expect(matrixProgress([], ABR_LADDER_HLS).commands[0]).not.toContain('--player');
    expect(MATRICES.cubic).toContain(ABR_LADDER_DASH);
  });

  it('an invalid attempt is listed by the bars it failed when the run names them', () => {
    const p = matrixProgress(
      [
        row({ repeat: 1, invalid: 'relay late (bar: p99 < 1 ms): ran up p99 3.37 ms', failedBars: 'relay-late' }),
        row({ repeat: 2, invalid: 'unmodelled drops: backhaul down 3', failedBars: 'unmodelled-drops' }),
      ],
      SMALL,
    );
    expect(p.invalidAttempts[0]!.reasons).toEqual(['relay-late', 'unmodelled-drops']);
  });
});
