import { join } from 'node:path';
import { summarize } from './summarize.js';

export default async function globalTeardown(): Promise<void> {
  const dir = process.env.EXP_OUT ?? 'results';
  const set = summarize(dir);
  if (!set) return;
  const { renderReport } = (await import('../../packages/player-demo/scripts/renderReport.mjs')) as {
    renderReport: (s: unknown, out: string) => string;
  };
  const html = renderReport(set, join(dir, 'report'));
  console.log(`summary: ${join(dir, 'summary.csv')}, ${join(dir, 'summary.json')}; report: ${html}`);
}
