/**
 * How an origin fetch waits on the edge itself (room in the byte budget, its readers taking what
 * it holds): what ends the wait, and what stops the fetch's clock while it lasts. The cache and
 * the entry pause the clock only once a wait really begins — a chunk that fits at once touches no
 * timer — and resume it when the wait ends, either way.
 */
export interface EdgeWait {
  /** Ends the wait (the fetch's limits or its cancel): it rejects with the signal's reason. */
  signal: AbortSignal;
  /** Stops the fetch's clock (FetchSignal.pauseDeadline); returns what starts it again. */
  pause?: (() => () => void) | undefined;
}
