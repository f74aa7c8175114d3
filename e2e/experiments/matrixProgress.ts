/**
 * How much of the paper's matrix (issue 16 item 4) the merged runs cover, and the experiment
 * commands that would run the rest: the matrix takes ~17 h of one machine, so it is run in pieces
 * across sessions and machines, and each piece should be exactly what is missing.
 */
import type { RunRow } from './mergeRuns.js';

export interface MatrixSpec {
  /** What progress.md calls it. */
  title?: string;
  rtts: readonly number[];
  streams: readonly string[];
  /**
   * Per receiver kind: the schemes and how many repeats each cell × scheme needs; for virtual
   * receivers also their append wait (`EXP_VPLAYER_APPEND_MS`; default 0, what the paper matrix
   * ran): another wait is another receiver model, a cell of its own (`[virtual, append 25 ms]`).
   */
  receivers: Readonly<Record<string, { schemes: readonly string[]; repeats: number; appendMs?: number }>>;
  durationS: number;
  /** Congestion control on every host when not BBR: in the cells' names (`(cubic)`) and the commands (`--cc cubic`). */
  cc?: 'cubic' | 'reno';
  /** The player when not hls.js: in the cells' names (`, dash.js`) and the commands (`--player dash`). */
  player?: 'dash';
}

const STREAMS = ['15M-2s', '15M-4s', '15M-10s', '50M-2s', '50M-4s', '50M-10s'] as const;

/**
 * 4 RTTs × 6 streams × {E2E, hold-0, the paper's x, auto} × 5 repeats × 120 s (virtual), and a
 * Chromium subset: {E2E, auto} × 1. Its `auto` rows ran `--segment-start slow-start`, the scheme
 * now called `auto-slow-start` (`auto` is the edge as shipped): a run added to them should be that.
 */
export const PAPER_MATRIX: MatrixSpec = {
  title: "The paper's matrix",
  rtts: [137, 224, 302, 334],
  streams: STREAMS,
  receivers: {
    virtual: { schemes: ['e2e', 'hold-0', 'hold-paper', 'auto'], repeats: 5 },
    chromium: { schemes: ['e2e', 'auto'], repeats: 1 },
  },
  durationS: 120,
};

/**
 * Issue 38's headline matrix: the paper's cells behind a CUBIC origin (Linux's default, which
 * restarts slow start after idle) — 4 RTTs × 6 streams × {E2E, hold-0, hold-paper, `auto` as
 * shipped} × 3 repeats × 120 s with the virtual receiver as shipped (its 25 ms append wait, the
 * model closer to hls.js), and every cell × {E2E, `auto`} × 1 in Chromium.
 */
export const CUBIC_MATRIX: MatrixSpec = {
  title: 'The CUBIC matrix (issue 38)',
  rtts: [137, 224, 302, 334],
  streams: STREAMS,
  receivers: {
    virtual: { schemes: ['e2e', 'hold-0', 'hold-paper', 'auto'], repeats: 3, appendMs: 25 },
    chromium: { schemes: ['e2e', 'auto'], repeats: 1 },
  },
  durationS: 120,
  cc: 'cubic',
};

/**
 * The BBR re-check (issue 38 item 4): the 224 ms E2E and `auto` rows of the BBR matrix re-run on
 * the fixed testbed with the same receiver model (no append wait) and the same edge
 * (`auto-slow-start` is what the BBR matrix's `auto` rows ran), so a difference is the testbed's.
 */
export const BBR_RECHECK: MatrixSpec = {
  title: 'The BBR re-check at 224 ms (issue 38)',
  rtts: [224],
  streams: STREAMS,
  receivers: { virtual: { schemes: ['e2e', 'auto-slow-start'], repeats: 3, appendMs: 0 } },
  durationS: 120,
};

/**
 * Issue 38 item 6, an ABR ladder as real players run it: the origin's 15 and 50 Mbit/s streams of
 * 2 s segments as one multivariant playlist (hls.js) and one MPD (dash.js), each player with its
 * default ABR and start level, at 224 and 334 ms on CUBIC, E2E vs `auto`, 3 repeats × 120 s, in
 * Chromium (the virtual receiver has no ABR). A spec per player: each is a cell of its own.
 */
export const ABR_LADDER_HLS: MatrixSpec = {
  title: 'The ABR ladder, hls.js (issue 38 item 6)',
  rtts: [224, 334],
  streams: ['15M+50M-2s'],
  receivers: { chromium: { schemes: ['e2e', 'auto'], repeats: 3 } },
  durationS: 120,
  cc: 'cubic',
};
export const ABR_LADDER_DASH: MatrixSpec = { ...ABR_LADDER_HLS, title: 'The ABR ladder, dash.js (issue 38 item 6)', player: 'dash' };

/** The matrices `experiment:merge --matrix NAME` reports progress on: each a list of specs. */
export const MATRICES: Readonly<Record<string, readonly MatrixSpec[]>> = {
  paper: [PAPER_MATRIX],
  cubic: [CUBIC_MATRIX, BBR_RECHECK, ABR_LADDER_HLS, ABR_LADDER_DASH],
};

/** The merged cell a spec's run must have to count, e.g. `15M-2s @ 224 ms (cubic) [virtual, append 25 ms]` (mergeRuns mergedCell). */
export function specCell(spec: MatrixSpec, receiver: string, rttMs: number, stream: string): string {
  const appendMs = receiver === 'virtual' ? (spec.receivers[receiver]?.appendMs ?? 0) : 0;
  return `${stream} @ ${rttMs} ms${spec.cc ? ` (${spec.cc})` : ''} [${receiver}${appendMs ? `, append ${appendMs} ms` : ''}${spec.player === 'dash' ? ', dash.js' : ''}]`;
}

export interface MatrixProgress {
  /** Valid runs that count (one per receiver × RTT × stream × scheme × repeat), and how many the matrix has. */
  done: number;
  total: number;
  /** Per receiver kind: runs done and needed. */
  byReceiver: Record<string, { done: number; total: number }>;
  /** What is missing, as commands that run exactly it (the fewest this grouping finds). */
  commands: string[];
  /**
   * Cells × schemes still short of repeats that were already tried and came out invalid (the
   * relays' timing or the box, not the scheme): running them again on the same machine may not
   * help, so they are listed with their attempts.
   */
  invalidAttempts: Array<{
    receiver: string;
    rttMs: number;
    stream: string;
    scheme: string;
    valid: number;
    invalid: number;
    reasons: string[];
  }>;
}

/**
 * A run counts when it is valid and its cell is the spec's (specCell: `15M-2s @ 224 ms [virtual]`
 * — LTE-A, hls.js, the spec's congestion control and receiver model, no other network setting);
 * a repeat counts once however often it was run.
 */
export function matrixProgress(rows: readonly RunRow[], spec: MatrixSpec = PAPER_MATRIX): MatrixProgress {
  const have = new Set<string>();
  // receiver|rtt|stream|scheme → the invalid marks of its plain-cell runs
  const invalidBy = new Map<string, string[]>();
  for (const r of rows) {
    if (r.repeat === null || r.rttMs === null) continue;
    if (r.cell !== specCell(spec, r.receiver, r.rttMs, r.stream)) continue;
    if (r.invalid) {
      const k = cellKey(r.receiver, r.rttMs, r.stream, r.scheme);
      // The bars it failed when the run says (`relay-late`), else the kind from its invalid line.
      invalidBy.set(k, [...(invalidBy.get(k) ?? []), r.failedBars || reasonOf(r.invalid)]);
    } else have.add(key(r.receiver, r.rttMs, r.stream, r.scheme, r.repeat));
  }
  const invalidAttempts: MatrixProgress['invalidAttempts'] = [];
  let done = 0;
  let total = 0;
  const byReceiver: MatrixProgress['byReceiver'] = {};
  // receiver → rtt → scheme → missing repeats → streams
  const missing: Array<{ receiver: string; rtt: number; scheme: string; repeats: number[]; stream: string }> = [];
  for (const [receiver, { schemes, repeats }] of Object.entries(spec.receivers)) {
    const mine = (byReceiver[receiver] = { done: 0, total: 0 });
    for (const rtt of spec.rtts) {
      for (const stream of spec.streams) {
        for (const scheme of schemes) {
          const lacking: number[] = [];
          for (let k = 1; k <= repeats; k++) {
            if (have.has(key(receiver, rtt, stream, scheme, k))) mine.done += 1;
            else lacking.push(k);
          }
          mine.total += repeats;
          if (lacking.length > 0) {
            missing.push({ receiver, rtt, scheme, repeats: lacking, stream });
            const marks = invalidBy.get(cellKey(receiver, rtt, stream, scheme));
            if (marks)
              invalidAttempts.push({
                receiver,
                rttMs: rtt,
                stream,
                scheme,
                valid: repeats - lacking.length,
                invalid: marks.length,
                reasons: [...new Set(marks)],
              });
          }
        }
      }
    }
    done += mine.done;
    total += mine.total;
  }
  return { done, total, byReceiver, commands: commandsFor(missing, spec), invalidAttempts };
}

/** The kind of an invalid mark without its figures: `relay late: ran up p99 1.53 ms (…)` → `relay late`. */
function reasonOf(mark: string): string {
  const colon = mark.indexOf(':');
  return (colon > 0 ? mark.slice(0, colon) : mark).trim();
}

function cellKey(receiver: string, rtt: number, stream: string, scheme: string): string {
  return `${receiver}|${rtt}|${stream}|${scheme}`;
}

function key(receiver: string, rtt: number, stream: string, scheme: string, repeat: number): string {
  return `${cellKey(receiver, rtt, stream, scheme)}|${repeat}`;
}

/**
 * Groups the missing runs into experiment commands: one command is a product RTTs × streams ×
 * schemes × a repeat range, so runs are grouped first by (receiver, RTT, scheme, repeat range)
 * into stream lists, then schemes with the same streams and repeats join, then RTTs with the same
 * rest. Every missing run is in exactly one command, and no command runs anything that is there.
 */
function commandsFor(
  missing: Array<{ receiver: string; rtt: number; scheme: string; repeats: number[]; stream: string }>,
  spec: MatrixSpec,
): string[] {
  const order = (s: string) => spec.streams.indexOf(s);
  // (receiver, rtt, scheme, range) → streams
  const byRange = new Map<string, { receiver: string; rtt: number; scheme: string; range: string; streams: string[] }>();
  for (const m of missing) {
    for (const range of ranges(m.repeats)) {
      const k = `${m.receiver}|${m.rtt}|${m.scheme}|${range}`;
      const g = byRange.get(k) ?? { receiver: m.receiver, rtt: m.rtt, scheme: m.scheme, range, streams: [] };
      g.streams.push(m.stream);
      byRange.set(k, g);
    }
  }
  // (receiver, rtt, range, streams) → schemes
  const bySchemes = new Map<string, { receiver: string; rtt: number; range: string; streams: string[]; schemes: string[] }>();
  for (const g of byRange.values()) {
    const streams = [...g.streams].sort((a, b) => order(a) - order(b));
    const k = `${g.receiver}|${g.rtt}|${g.range}|${streams.join(',')}`;
    const h = bySchemes.get(k) ?? { receiver: g.receiver, rtt: g.rtt, range: g.range, streams, schemes: [] };
    h.schemes.push(g.scheme);
    bySchemes.set(k, h);
  }
  // (receiver, range, streams, schemes) → rtts
  const byRtts = new Map<string, { receiver: string; range: string; streams: string[]; schemes: string[]; rtts: number[] }>();
  for (const h of bySchemes.values()) {
    const k = `${h.receiver}|${h.range}|${h.streams.join(',')}|${h.schemes.join(',')}`;
    const i = byRtts.get(k) ?? { receiver: h.receiver, range: h.range, streams: h.streams, schemes: h.schemes, rtts: [] };
    i.rtts.push(h.rtt);
    byRtts.set(k, i);
  }
  return [...byRtts.values()].map(
    // The virtual receivers' append wait is named even where it is the receiver's default: another
    // wait makes another receiver model, a cell of its own that would not count here.
    (c) =>
      `${c.receiver === 'virtual' ? `EXP_VPLAYER_APPEND_MS=${spec.receivers[c.receiver]?.appendMs ?? 0} ` : ''}npm run experiment -- --receiver ${c.receiver}${spec.cc ? ` --cc ${spec.cc}` : ''}${spec.player ? ` --player ${spec.player}` : ''} --rtt ${c.rtts.join(',')} --stream ${c.streams.join(',')} --scheme ${c.schemes.join(',')} --repeats ${c.range} --duration ${spec.durationS}`,
  );
}

/** Repeat numbers as `--repeats` ranges: [1, 2, 3, 5] → ['1-3', '5-5']. */
function ranges(ks: readonly number[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < ks.length) {
    let j = i;
    while (j + 1 < ks.length && ks[j + 1] === ks[j]! + 1) j += 1;
    out.push(`${ks[i]}-${ks[j]}`);
    i = j + 1;
  }
  return out;
}

/** The progress as Markdown, for progress.md beside the merged tables. */
export function matrixProgressMarkdown(p: MatrixProgress, title = "The paper's matrix", level = 1): string {
  const pct = (d: number, t: number) => `${d} of ${t} (${t === 0 ? 0 : Math.round((d / t) * 100)} %)`;
  const lines = [
    `${'#'.repeat(level)} ${title}: what is run, what is left`,
    '',
    `Valid runs that count: ${pct(p.done, p.total)}.`,
    '',
    ...Object.entries(p.byReceiver).map(([r, c]) => `- ${r}: ${pct(c.done, c.total)}`),
    '',
    p.commands.length === 0
      ? 'Nothing is left.'
      : 'What is left, as the commands that run exactly it (each `--out` a new directory, then `npm run experiment:merge`):',
    '',
  ];
  if (p.commands.length > 0) lines.push('```sh', ...p.commands, '```', '');
  if (p.invalidAttempts.length > 0) {
    lines.push(
      'Of those, already run and invalid (on the machine that ran them; another may run them valid; a repeat run twice is on record once, its latest):',
      '',
      '| receiver | RTT (ms) | stream | scheme | valid | invalid on record | why |',
      '|---|---|---|---|---|---|---|',
      ...p.invalidAttempts.map(
        (a) => `| ${a.receiver} | ${a.rttMs} | ${a.stream} | ${a.scheme} | ${a.valid} | ${a.invalid} | ${a.reasons.join('; ')} |`,
      ),
      '',
    );
  }
  return lines.join('\n');
}

/** progress.md of several specs (`experiment:merge --matrix cubic`: the CUBIC matrix and the BBR re-check), a section each. */
export function matricesProgressMarkdown(
  rows: readonly RunRow[],
  specs: readonly MatrixSpec[],
): { markdown: string; done: number; total: number } {
  if (specs.length === 1) {
    const p = matrixProgress(rows, specs[0]);
    return { markdown: matrixProgressMarkdown(p, specs[0]!.title), done: p.done, total: p.total };
  }
  const parts = specs.map((spec) => ({ spec, p: matrixProgress(rows, spec) }));
  const done = parts.reduce((a, x) => a + x.p.done, 0);
  const total = parts.reduce((a, x) => a + x.p.total, 0);
  const head = [`# What is run, what is left`, '', `Valid runs that count, over ${specs.length} parts: ${done} of ${total}.`, ''];
  return { markdown: [...head, ...parts.map((x) => matrixProgressMarkdown(x.p, x.spec.title, 2))].join('\n'), done, total };
}
