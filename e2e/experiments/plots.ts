/**
 * `npm run experiment:plots -- DIR [DIR…]`: SVG plots beside the CSVs of merged result
 * directories. A directory with merge's summary.csv (and runs.csv) gets bar plots per receiver
 * variant — buffering, latency and startup per scheme, a row per RTT, 95 % intervals and the
 * valid runs as dots; one with experiment:scale's cdf.csv gets the per-receiver startup and
 * buffering CDFs. Files are named plot-*.svg and rewritten whole, so a re-merge re-plots.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import { barPlots, cdfPlots, type PlotFile } from './plotSpecs.js';

const dirs = process.argv.slice(2).filter((a) => a !== '--');
if (dirs.length === 0) {
  console.error('usage: npm run experiment:plots -- DIR [DIR…]   (a directory written by experiment:merge or experiment:scale)');
  process.exit(2);
}

async function toSvg(p: PlotFile): Promise<string> {
  const view = new vega.View(vega.parse(compile(p.spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return `${svg}\n`;
}

let failed = false;
for (const dir of dirs) {
  const read = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : undefined);
  const summary = read('summary.csv');
  const cdf = read('cdf.csv');
  const plots: PlotFile[] = [];
  try {
    if (summary) plots.push(...barPlots(summary, read('runs.csv')));
    if (cdf) plots.push(...cdfPlots(cdf));
  } catch (e) {
    console.error(`${dir}: ${(e as Error).message}`);
    failed = true;
    continue;
  }
  if (plots.length === 0) {
    console.error(
      `${dir}: nothing to plot (${summary || cdf ? 'no valid run in its CSVs yet' : 'no summary.csv from experiment:merge, no cdf.csv from experiment:scale'})`,
    );
    failed = true;
    continue;
  }
  // Plots of variants no longer in the CSVs would otherwise linger beside them.
  for (const f of readdirSync(dir)) if (/^plot-.*\.svg$/.test(f)) rmSync(join(dir, f));
  for (const p of plots) writeFileSync(join(dir, p.file), await toSvg(p));
  console.log(`${dir}: ${plots.map((p) => p.file).join(', ')}`);
}
process.exitCode = failed ? 1 : 0;
