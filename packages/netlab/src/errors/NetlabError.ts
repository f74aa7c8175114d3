/** What went wrong, for callers that branch on it (the experiments print the message and stop). */
export type NetlabErrorCode = 'NETLAB_REALTIME';

/** An error from building a testbed: a code plus structured details. */
export class NetlabError extends Error {
  override readonly name = 'NetlabError';
  readonly code: NetlabErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: NetlabErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(`${code}: ${message}`);
    this.code = code;
    this.details = details;
  }
}
