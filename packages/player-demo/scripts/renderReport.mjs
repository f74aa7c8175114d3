#!/usr/bin/env node
// Renders a static HTML report of a results set with the dashboard: one HTML file, the dashboard
// (built self-contained by vite.report.config.ts) with the results embedded. It opens from disk:
// no server, no network.
//   node packages/player-demo/scripts/renderReport.mjs results/summary.json out-dir/
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Writes `outDir/index.html` showing `results` (a ResultSet object); returns its path. */
export function renderReport(results, outDir) {
  const template = fileURLToPath(new URL('../dist-report/dashboard.html', import.meta.url));
  if (!existsSync(template)) throw new Error(`renderReport: ${template} is missing; run npm run build first`);
  mkdirSync(outDir, { recursive: true });
  const page = readFileSync(template, 'utf8');
  // JSON inside <script> must not close the element: escape '<'.
  const data = JSON.stringify(results).replace(/</g, '\\u003c');
  const html = page.replace('</body>', `<script id="results-data" type="application/json">${data}</script>\n</body>`);
  writeFileSync(join(outDir, 'index.html'), html);
  return join(outDir, 'index.html');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [input, out] = process.argv.slice(2);
  if (!input || !out) {
    console.error('usage: renderReport.mjs RESULTS.json OUT_DIR');
    process.exit(2);
  }
  console.log(renderReport(JSON.parse(readFileSync(input, 'utf8')), out));
}
