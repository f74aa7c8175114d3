import { FORMATS } from './FORMATS.js';
import { TOLERANCE_S, type CellResult } from './runRow.js';

/** The largest |true-latency difference − judged difference| over hls.js edge cells, s. */
const hlsSpread = (cells: readonly CellResult[]): number | null => {
  const d = cells.filter((c) => c.player === 'hls' && c.deltaS !== null && c.judgedS !== null).map((c) => Math.abs(c.deltaS! - c.judgedS!));
  return d.length === 0 ? null : Math.max(...d);
};

const s = (x: number | null, digits = 2): string => (x === null || !Number.isFinite(x) ? '–' : x.toFixed(digits));

/** docs/conformance.md: one line per cell. `limitations` maps `format/via` to the player limitation that explains a failure. */
export function renderConformance(cells: readonly CellResult[], o: { seconds: number; date: string; command: string; versions: string; limitations: Record<string, string> }): string {
  const lines = [
    '# Player conformance matrix',
    '',
    `Every player we support × every stream shape the live origin offers × {direct, edge hold 0, edge hold 2},`,
    `in Debian Chromium (${o.versions}), ${o.seconds} s of playback per cell after the first frame, the three`,
    'cells of a row played at the same time. Made by `' + o.command + '` on ' + o.date + '.',
    '',
    'A cell passes when the player played the whole time without a fatal error and, through an edge, no',
    'request of the page went to the origin itself (the UTCTiming clock `/time` excepted) and what the edge',
    `added between production and the player = the declared hold (X-Ethle-Hold-Seconds of the media manifests) ± ${TOLERANCE_S} s:`,
    '',
    "- dash.js (live catch-up on, so it keeps its target delay behind the MPD's clock-based edge): its true",
    "  latency − the direct cell's. True latency is the QoE probe's: synced clock − production time of the",
    '  frame on screen, median of its samples once its clock is within ±50 ms.',
    "- hls.js: its manifest lag − the direct cell's — how long after production the playlist the player",
    '  read lists a segment, measured by the probe from EXT-X-PROGRAM-DATE-TIME and its synced clock',
    '  (`report().manifestLag`). The true-latency difference is listed too, but not judged: hls.js starts a',
    '  target distance behind its own estimate of the playlist edge (last segment end + time since its',
    '  reload), which is off by the phase of its reloads, so two sessions started together can sit up to a',
    `  segment apart behind the same playlist (in this run, hls.js true latency − direct strays from the judged value by up to ${s(hlsSpread(cells))} s).`,
    '',
    '| player | format | via | result | true latency (s) | − direct (s) | judged − direct (s) | declared hold (s) | startup (s) | stalls | segments via edge | notes |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const c of cells) {
    const f = FORMATS.find((x) => x.id === c.format);
    const lim = o.limitations[`${c.format}/${c.via}`];
    const result = c.failures.length === 0 ? 'pass' : lim !== undefined ? 'player limitation' : 'FAIL';
    const notes = [...c.failures, ...(lim ? [lim] : []), ...(c.declaredValues.length > 1 ? [`declared values ${c.declaredValues.join(', ')}`] : []), ...(c.via === 'hold-2' && c.declaredS === 0 ? ['the edge passes this shape through unheld and says so (declared 0)'] : [])].join('; ');
    lines.push(
      `| ${c.player === 'hls' ? 'hls.js' : 'dash.js'} | ${c.format} (\`${f?.path ?? ''}\`) | ${c.via} | ${result} | ${s(c.latencyS)} | ${s(c.deltaS)} | ${s(c.judgedS)} | ${c.via === 'direct' ? '–' : s(c.declaredS, 3)} | ${s(c.startupS)} | ${c.stalls} | ${c.via === 'direct' ? '–' : c.edgeSegments} | ${notes.replaceAll('|', '\\|')} |`,
    );
  }
  const failed = cells.filter((c) => c.failures.length > 0 && o.limitations[`${c.format}/${c.via}`] === undefined).length;
  lines.push('', `${cells.length} cells: ${cells.length - failed} pass or documented, ${failed} fail.`, '');
  return lines.join('\n');
}
