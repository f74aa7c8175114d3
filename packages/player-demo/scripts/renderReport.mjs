#!/usr/bin/env node
// Renders a static HTML report of a results set with the dashboard: one HTML file, the dashboard
// (built self-contained by vite.report.config.ts) with the results embedded. It opens from disk:
// no server, no network.
//   node packages/player-demo/scripts/renderReport.mjs results/summary.json out-dir/
// A missing, unreadable or non-results input is one line on stderr with a code, exit 2.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What went wrong, by kind: ERR_REPORT_INPUT (the results), ERR_REPORT_TEMPLATE (not built), ERR_REPORT_OUTPUT. */
export class ReportError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'ReportError';
    this.code = code;
  }
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Why `results` is not what the dashboard renders (a set `{ runs: [...] }`, or one run), or
 * undefined. The same shapes as the dashboard's asResultSet (src/data/summarize.ts), checked a
 * level deeper so a wrong file fails here, not as an empty report.
 */
export function resultsProblem(results) {
  if (!isObject(results)) return 'expected a JSON object';
  const runs = Array.isArray(results.runs) ? results.runs : isObject(results.scenario) && isObject(results.report) ? [results] : undefined;
  if (!runs) return 'expected {"v": 1, "runs": [...]} (what npm run experiment writes) or one run with "scenario" and "report"';
  for (const [i, r] of runs.entries()) {
    if (!isObject(r) || typeof r.id !== 'string' || !isObject(r.scenario) || !isObject(r.report))
      return `runs[${i}] is not a run: expected "id", "scenario" and "report"`;
  }
  return undefined;
}

/** Writes `outDir/index.html` showing `results` (a ResultSet object); returns its path. */
export function renderReport(results, outDir) {
  const problem = resultsProblem(results);
  if (problem) throw new ReportError('ERR_REPORT_INPUT', `not a results set: ${problem}`);
  const template = fileURLToPath(new URL('../dist-report/dashboard.html', import.meta.url));
  if (!existsSync(template)) throw new ReportError('ERR_REPORT_TEMPLATE', `${template} is missing; run npm run build first`);
  const page = readFileSync(template, 'utf8');
  // JSON inside <script> must not close the element: escape '<'.
  const data = JSON.stringify(results).replace(/</g, '\\u003c');
  const html = page.replace('</body>', `<script id="results-data" type="application/json">${data}</script>\n</body>`);
  try {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'index.html'), html);
  } catch (e) {
    throw new ReportError('ERR_REPORT_OUTPUT', `cannot write ${join(outDir, 'index.html')} (${e.code ?? e.message})`);
  }
  return join(outDir, 'index.html');
}

function readResults(input) {
  let text;
  try {
    text = readFileSync(input, 'utf8');
  } catch (e) {
    throw new ReportError('ERR_REPORT_INPUT', `cannot read ${input} (${e.code ?? e.message})`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ReportError('ERR_REPORT_INPUT', `${input} is not JSON (${e.message})`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [input, out, ...rest] = process.argv.slice(2);
  if (!input || !out || rest.length) {
    console.error('usage: renderReport.mjs RESULTS.json OUT_DIR');
    process.exit(2);
  }
  try {
    const results = readResults(input);
    const problem = resultsProblem(results);
    if (problem) throw new ReportError('ERR_REPORT_INPUT', `${input} is not a results set: ${problem}`);
    console.log(renderReport(results, out));
  } catch (e) {
    if (!(e instanceof ReportError)) throw e;
    console.error(`renderReport: ${e.code}: ${e.message}`);
    process.exit(e.code === 'ERR_REPORT_TEMPLATE' ? 1 : 2);
  }
}
