/** Renders an experiment summary (e2e/experiments/summarize.ts) as a static HTML report into outDir; returns the HTML path. Throws ReportError (code ERR_REPORT_INPUT) when `set` is not a results set. */
export function renderReport(set: unknown, outDir: string): string;
/** Why `results` is not a results set the dashboard renders, or undefined. */
export function resultsProblem(results: unknown): string | undefined;
export class ReportError extends Error {
  readonly code: 'ERR_REPORT_INPUT' | 'ERR_REPORT_TEMPLATE' | 'ERR_REPORT_OUTPUT';
}
