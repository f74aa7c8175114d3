import type { EdgeOption } from '../config/EdgeOption.js';

/** Where the explanations start: two spaces, then the flags' column. */
const COLUMN = 24;

/** `ethle-edge serve --help`: a line or more per flag of the option table, in its order. */
export function serveUsage(options: readonly EdgeOption[]): string {
  const lines: string[] = [];
  for (const { rule, cli } of options) {
    if (cli?.help === undefined) continue;
    const left = cli.usage ?? `--${cli.flag} ${cli.arg}`;
    const fallback = rule !== undefined && 'default' in rule ? rule.default : undefined;
    const help = cli.help.map((l) => l.replace('{default}', String(fallback)));
    lines.push(`  ${left.length < COLUMN ? left.padEnd(COLUMN) : `${left}  `}${help[0]}`);
    for (const more of help.slice(1)) lines.push(`  ${''.padEnd(COLUMN)}${more}`);
  }
  return `usage: ethle-edge serve --origin URL [options]

${lines.join('\n')}

GET /healthz (ready), GET /metrics (Prometheus). SIGTERM/SIGINT: graceful shutdown.
`;
}
