/**
 * How much of the paper's matrix (issue 16 item 4) the merged runs cover, and the experiment
 * commands that would run the rest: the matrix takes ~17 h of one machine, so it is run in pieces
 * across sessions and machines, and each piece should be exactly what is missing.
 */
import type { RunRow } from './mergeRuns.js';

export interface MatrixSpec {
  rtts: readonly number[];
  streams: readonly string[];
  /** Per receiver kind: the schemes and how many repeats each cell × scheme needs. */
  receivers: Readonly<Record<string, { schemes: readonly string[]; repeats: number }>>;
  durationS: number;
}

/** 4 RTTs × 6 streams × {E2E, hold-0, the paper's x, auto} × 5 repeats × 120 s (virtual), and a Chromium subset: {E2E, auto} × 1. */
export const PAPER_MATRIX: MatrixSpec = {
  rtts: [137, 224, 302, 334],
  streams: ['15M-2s', '15M-4s', '15M-10s', '50M-2s', '50M-4s', '50M-10s'],
  receivers: {
    virtual: { schemes: ['e2e', 'hold-0', 'hold-paper', 'auto'], repeats: 5 },
    chromium: { schemes: ['e2e', 'auto'], repeats: 1 },
  },
  durationS: 120,
};

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
  invalidAttempts: Array<{ receiver: string; rttMs: number; stream: string; scheme: string; valid: number; invalid: number; reasons: string[] }>;
}

/**
 * A run counts when it is valid and its cell is the plain matrix cell (`15M-2s @ 224 ms [virtual]`:
 * LTE-A, hls.js, default network settings); a repeat counts once however often it was run.
 */
export function matrixProgress(rows: readonly RunRow[], spec: MatrixSpec = PAPER_MATRIX): MatrixProgress {
  const have = new Set<string>();
  // receiver|rtt|stream|scheme → the invalid marks of its plain-cell runs
  const invalidBy = new Map<string, string[]>();
  for (const r of rows) {
    if (r.repeat === null || r.rttMs === null) continue;
    if (r.cell !== `${r.stream} @ ${r.rttMs} ms [${r.receiver}]`) continue;
    if (r.invalid) {
      const k = cellKey(r.receiver, r.rttMs, r.stream, r.scheme);
      invalidBy.set(k, [...(invalidBy.get(k) ?? []), r.invalid]);
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
            if (marks) invalidAttempts.push({ receiver, rttMs: rtt, stream, scheme, valid: repeats - lacking.length, invalid: marks.length, reasons: [...new Set(marks.map(reasonOf))] });
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
function commandsFor(missing: Array<{ receiver: string; rtt: number; scheme: string; repeats: number[]; stream: string }>, spec: MatrixSpec): string[] {
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
    // The matrix's virtual receivers request at once after a segment (all its runs so far did): an
    // append gap makes another receiver model, a cell of its own that does not count here.
    (c) => `${c.receiver === 'virtual' ? 'EXP_VPLAYER_APPEND_MS=0 ' : ''}npm run experiment -- --receiver ${c.receiver} --rtt ${c.rtts.join(',')} --stream ${c.streams.join(',')} --scheme ${c.schemes.join(',')} --repeats ${c.range} --duration ${spec.durationS}`,
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
export function matrixProgressMarkdown(p: MatrixProgress): string {
  const pct = (d: number, t: number) => `${d} of ${t} (${t === 0 ? 0 : Math.round((d / t) * 100)} %)`;
  const lines = [
    `# The paper's matrix: what is run, what is left`,
    '',
    `Valid runs that count: ${pct(p.done, p.total)}.`,
    '',
    ...Object.entries(p.byReceiver).map(([r, c]) => `- ${r}: ${pct(c.done, c.total)}`),
    '',
    p.commands.length === 0 ? 'Nothing is left.' : 'What is left, as the commands that run exactly it (each `--out` a new directory, then `npm run experiment:merge`):',
    '',
  ];
  if (p.commands.length > 0) lines.push('```sh', ...p.commands, '```', '');
  if (p.invalidAttempts.length > 0) {
    lines.push(
      'Of those, already run and invalid (on the machine that ran them; another may run them valid; a repeat run twice is on record once, its latest):',
      '',
      '| receiver | RTT (ms) | stream | scheme | valid | invalid on record | why |',
      '|---|---|---|---|---|---|---|',
      ...p.invalidAttempts.map((a) => `| ${a.receiver} | ${a.rttMs} | ${a.stream} | ${a.scheme} | ${a.valid} | ${a.invalid} | ${a.reasons.join('; ')} |`),
      '',
    );
  }
  return lines.join('\n');
}
