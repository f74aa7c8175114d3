import { EXIT_USAGE, type CliIo } from './CliIo.js';

export async function runPlan(_argv: string[], io: CliIo): Promise<number> {
  io.stderr.write('ethle-edge plan: not implemented yet\n');
  return EXIT_USAGE;
}
