export interface CliIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  io.stderr.write(`ethle-edge: unknown command ${JSON.stringify(argv[0] ?? '')}\n`);
  return 2;
}
