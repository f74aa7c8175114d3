import { EXIT_USAGE, type CliIo } from './CliIo.js';

export async function runServe(_argv: string[], io: CliIo): Promise<number> {
  io.stderr.write('ethle-edge serve: not implemented yet\n');
  return EXIT_USAGE;
}
