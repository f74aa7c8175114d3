/** Renders an experiment summary (e2e/experiments/summarize.ts) as a static HTML report into outDir; returns the HTML path. */
export function renderReport(set: unknown, outDir: string): string;
