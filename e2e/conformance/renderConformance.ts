import type { CellResult, Spread } from './judgeRow.js';
import { LAG_TOLERANCE_S, TOLERANCE_S } from './judgeRow.js';
import { PLAYER_NAME, playersOf, SHAPES, viasOf } from './SHAPES.js';

const f = (x: number | null | undefined, digits = 2): string =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits);
const ms = (s: Spread | null, digits = 2): string =>
  s === null ? '–' : s.n < 2 ? f(s.mean, digits) : `${f(s.mean, digits)} ± ${f(s.sd, digits)}`;

export interface RenderOptions {
  seconds: number;
  groups: number;
  date: string;
  command: string;
  versions: string;
  /** Box load while it ran (1-min load average: min–max), for the reader to judge the timing figures. */
  load: string;
  /** The commit it ran at (absent in runs that did not record it). */
  commit?: string;
  /** A run merged from parts of the matrix (rejudge.ts): each part's command. */
  parts?: string[];
  limitations: Record<string, string>;
}

/** A run as matrix.spec.ts keeps it (docs/conformance.json): what was measured, and how. */
export type ConformanceRun = Omit<RenderOptions, 'limitations'> & { cells: CellResult[] };

/** The result of a cell: pass, a documented player limitation, or FAIL. */
export const resultOf = (c: CellResult, limitations: Record<string, string>): 'pass' | 'player limitation' | 'FAIL' =>
  c.failures.length === 0 ? 'pass' : limitations[`${c.player}/${c.shape}/${c.via}`] !== undefined ? 'player limitation' : 'FAIL';

/** docs/conformance.md (or, for a part of the matrix, the same page for the rows that ran). */
export function renderConformance(unordered: readonly CellResult[], o: RenderOptions): string {
  // Matrix order (shape, its players, their vias), whatever order the parts ran in.
  const order = (c: CellResult) => {
    const s = SHAPES.findIndex((x) => x.id === c.shape);
    const shape = SHAPES[s];
    return shape === undefined ? [SHAPES.length, 0, 0] : [s, playersOf(shape).indexOf(c.player), viasOf(shape).indexOf(c.via)];
  };
  const cells = [...unordered].sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  });
  const ran = new Set(cells.map((c) => `${c.player}/${c.shape}`));
  const notRun = SHAPES.flatMap((s) =>
    playersOf(s)
      .filter((p) => !ran.has(`${p}/${s.id}`))
      .map((p) => `${PLAYER_NAME[p]} · ${s.id}`),
  );
  const parts = o.parts && o.parts.length > 1 ? o.parts : undefined;
  const made = parts ? `by \`${o.command}\` in ${parts.length} parts run one after the other (below),` : `by \`${o.command}\``;
  const lines = [
    '# Player conformance matrix',
    '',
    `Every shape the live origin serves (docs/interfaces.md) × the players that play it — hls.js the HLS`,
    `shapes, dash.js the DASH ones, Shaka Player all — × {direct, edge hold 0, edge hold 2, and for the`,
    'low-latency shapes an edge with `--hold-parts 2`}, in Debian Chromium with the QoE probe',
    `(${o.versions}). Made ${made}${o.commit ? ` at \`${o.commit}\`` : ''} on ${o.date}, box load ${o.load}`,
    '(2 cores, shared with other runs); its measurements are `docs/conformance.json`, judged again',
    'by `npx tsx e2e/conformance/rejudge.ts`.',
    '',
    ...(parts ? ['The parts:', '', ...parts.map((c) => `- \`${c}\``), ''] : []),
    '## What a cell checks',
    '',
    `A row is one player on one shape. It opens ${o.groups} groups of pages, a third of a segment apart;`,
    'each group has one page per via, opened at the same instant. Every page plays',
    `${o.seconds} s of media after its first frame. Players as they come, except: dash.js with live catch-up`,
    '(its documented live setting); on the low-latency shapes hls.js `lowLatencyMode`, Shaka',
    '`streaming.lowLatencyMode` (dash.js switches itself from the MPD). A cell (row × via) passes when:',
    '',
    '- every session played the whole time, without a fatal player error, with a true-latency reading',
    '  (the probe: synced clock − production time of the frame on screen, median of its samples once',
    '  its clock is within ±50 ms);',
    '- through an edge: no request of the page went around it (the UTCTiming clock `/time`',
    '  excepted), segments came from it, and its media manifests declared their hold',
    '  (`X-Ethle-Hold-Seconds`);',
    '- through an edge that holds (hold-2, parts-2): what it adds is the declared hold, measured three ways:',
    "  - **manifest lag**: the edge's manifest against the origin's, read together by the test every",
    '    250 ms apart from any player (how much less content it lists: whole segments, parts for',
    "    parts-2; DASH by each MPD's own availabilityStartTime and timeline) — this via's minus",
    `    hold-0's = the declared hold ± ${LAG_TOLERANCE_S} s (both edges list a segment a poll after the origin; an LL-HLS`,
    "    playlist held in whole segments declares the players' fallback from PART-HOLD-BACK to HOLD-BACK too,",
    '    `X-Ethle-Low-Latency-Lost-Seconds`, which its manifest is judged without);',
    '  - **true latency − hold-0**: each session against the hold-0 session opened with it, mean of the',
    `    pairs = the declared hold ± ${TOLERANCE_S} s or twice the mean's standard error, whichever is larger (± ${TOLERANCE_S} s + a`,
    '    segment for a single pair). A player starts a whole number of segments behind the edge it',
    '    sees, and at its own startup pace: without live catch-up (hls.js, Shaka as they come) one',
    '    session sits anywhere within a segment, so only a mean says what the edge added, and only',
    '    as precisely as its spread allows — the table shows both;',
    `  - HLS: **the players' manifest lag** (the probe's, from the playlists the player itself read) − hold-0's = the declared hold ± ${TOLERANCE_S} s;`,
    "- through hold-0: its manifest trails the origin's by 0 to one segment (a poll; not judged",
    '  further: its true latency − direct is listed, not judged — the origin lists a segment the',
    '  moment it is complete, the edge a poll later, and the players start by what they saw).',
    '',
    'Figures are mean ± standard deviation over the sessions of the cell (n = groups); "− ref" pairs',
    "each session with the same group's hold-0 session (hold-0: with direct), and gives the bound it",
    'was judged against; "players\' lag" is the probe\'s manifest lag (HLS), and for a holding via its',
    "difference from hold-0's.",
    '',
    '## Reproducing a row',
    '',
    '```sh',
    "npm run conformance -- -g 'Shaka · hls-fmp4'      # one row: every via of it, judged as above",
    "ETHLE_CONFORMANCE_SECONDS=12 npm run conformance -- -g 'dash.js · dash-timeline'",
    '```',
    '',
    'A run of part of the matrix prints each cell and writes `test-results/conformance.md` and',
    '`.json`; the whole matrix rewrites this page, or parts run one after the other and merged:',
    '`npx tsx e2e/conformance/rejudge.ts part1.json part2.json … --out docs/conformance.md`. (A hold-x',
    "verdict needs its row's hold-0 sessions, so the smallest unit is a row.) A row run again replaces its",
    'cells in this page: `npx tsx e2e/conformance/rejudge.ts docs/conformance.json test-results/conformance.json',
    '--replace --out docs/conformance.md`.',
    '',
    '## Player limitations',
    '',
    '- **dash.js refreshes an MPD only after its own PLAYBACK_STARTED.** Its ManifestUpdater starts',
    '  paused and arms the refresh timer on PLAYBACK_STARTED, which its PlaybackController raises',
    "  from the element's `play` event — once it listens, after the stream is set up. A page that",
    '  calls `video.play()` itself right after `player.initialize(video, url, false)` fires that',
    '  event first: the MPD is fetched once, and a SegmentTimeline, multi-period or SegmentList MPD',
    "  (timeline.mpd, periods.mpd, list.mpd) stops playing when the first MPD's segments run out",
    '  (4–5 s here; `$Number$` MPDs need no refresh and play on). Start dash.js with',
    '  `initialize(video, url, true)` or `player.play()` (as this matrix does) and it plays on:',
    '  `e2e/tests/dash-refresh.spec.ts` plays the three MPDs 60 s that way and pins the other.',
    '  Upstream: Dash-Industry-Forum/dash.js#1624 ("ManifestRefreshTimer not always called for',
    '  livestream"; a play/pause restarts the refreshes) and videojs/videojs-contrib-dash#81 (the',
    "  same, traced to the element's play() bypassing dash.js's PLAYBACK_STARTED); dash.js 5.2.1",
    '  `src/streaming/ManifestUpdater.js` (`resetInitialSettings`: `isPaused = true`;',
    '  `_onPlaybackStarted`).',
    ...Object.entries(o.limitations).map(([k, v]) => `- **${k}**: ${v}`),
    '',
    ...(notRun.length === 0
      ? []
      : [
          '## Rows not run',
          '',
          `Not in this run, so not proven here: ${notRun.map((r) => `\`${r}\``).join(', ')} (one runs with \`npm run conformance -- -g '<row>$'\`).`,
          '',
        ]),
    '## Results',
    '',
    "| player | shape | via | result | true latency (s) | − ref (s) | declared (s) | manifest lag (s) | players' lag (s) | startup (s) | stalls | segments via edge | notes |",
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const c of cells) {
    const s = SHAPES.find((x) => x.id === c.shape);
    const lim = o.limitations[`${c.player}/${c.shape}/${c.via}`];
    const notes = [
      ...c.failures,
      ...(lim ? [lim] : []),
      ...(c.declaredValues.length > 1 ? [`declared ${Math.min(...c.declaredValues)}–${Math.max(...c.declaredValues)} s (mean shown)`] : []),
      ...(c.via !== 'direct' && c.via !== 'hold-0' && c.declaredS === 0
        ? ['the edge passes this shape through unheld and says so (declared 0)']
        : []),
      ...c.notes,
    ].join('; ');
    const ref =
      c.deltaRef === null
        ? '–'
        : `${ms(c.delta)} (${c.deltaRef}${c.deltaTolerance === null ? '' : `; ${f(c.declaredS, 1)} ± ${f(c.deltaTolerance)}`})`;
    const seen = c.probeLag === null ? '–' : `${ms(c.probeLag)}${c.probeLagDelta === null ? '' : ` (Δ ${f(c.probeLagDelta)})`}`;
    lines.push(
      `| ${PLAYER_NAME[c.player]} | ${c.shape} (\`${s?.path ?? ''}\`) | ${c.via} | ${resultOf(c, o.limitations)} | ${ms(c.latency)} | ${ref} | ${c.via === 'direct' ? '–' : f(c.declaredS, 3)} | ${c.via === 'direct' ? '–' : ms(c.manifestLag)} | ${seen} | ${ms(c.startup)} | ${c.stalls} | ${c.via === 'direct' ? '–' : c.edgeSegments} | ${notes.replaceAll('|', '\\|')} |`,
    );
  }
  const counts = { pass: 0, 'player limitation': 0, FAIL: 0 };
  for (const c of cells) counts[resultOf(c, o.limitations)]++;
  lines.push(
    '',
    `${cells.length} cells: ${counts.pass} pass, ${counts['player limitation']} documented player limitations, ${counts.FAIL} fail.`,
    '',
  );
  return lines.join('\n');
}
