/**
 * A bad option to `startOrigin` or the CLI: a user mistake, so the CLI prints the message in one
 * line (no stack). A RangeError, as the option checks always threw, now with a code to match on.
 */
export class OriginOptionError extends RangeError {
  readonly code = 'ERR_ORIGIN_OPTION';
  constructor(
    message: string,
    /** The option at fault, as `startOrigin` names it. */
    readonly option: string,
  ) {
    super(message);
    this.name = 'OriginOptionError';
  }
}
