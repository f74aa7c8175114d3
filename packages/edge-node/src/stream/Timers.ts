/** The timers a stream's rooms run on: Node's (unref'd) unless a clock is plugged in. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const NODE_TIMERS: Timers = {
  // A stream's timers never keep the process alive: the edge's server does.
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};
