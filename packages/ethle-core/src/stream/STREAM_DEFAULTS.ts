/** The per-stream layer's defaults, one table for both edges. */
export const STREAM_DEFAULTS = {
  /** A stream without receiver requests for this long is closed (its poller, x and window go), ms. */
  idleMs: 30_000,
  /** Query parameters that name a different stream (see streamIdentity): none. */
  streamQueryParams: [] as readonly string[],
} as const;
