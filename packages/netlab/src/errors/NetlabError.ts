/** What went wrong, for callers that branch on it (the experiments print the message and stop). */
export type NetlabErrorCode =
  /** A relay or socat could not be given real-time priority. */
  | 'NETLAB_REALTIME'
  /** A socket on a link's path did not get the buffer the link needs (linkBuffers). */
  | 'NETLAB_BUFFERS'
  /** A link's counters could not be read. */
  | 'NETLAB_ACCOUNT'
  /** A link's relay process ended while its testbed was up (its exit code or signal says how). */
  | 'NETLAB_RELAY_EXITED'
  /** A relay could not bind a port chosen free: another process took it in between (the testbed retries). */
  | 'NETLAB_PORT_TAKEN';

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
