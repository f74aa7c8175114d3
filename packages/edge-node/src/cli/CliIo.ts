/** The streams a CLI command writes to; tests pass buffers, the bin passes process streams. */
export interface CliIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

/** Exit code for bad arguments (a usage error), as most CLIs do. */
export const EXIT_USAGE = 2;
