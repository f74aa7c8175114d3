import { timerMs } from '@ethle/core';

/**
 * The two ways a segment fetch is stopped — nobody waits for it (its entry's AbortController), or
 * it ran past its deadline — and either of them, which the requests and waits of the fetch take.
 * Kept apart so a failure can say which one it was (ERR_EDGE_CANCELLED vs ERR_EDGE_ORIGIN_TIMEOUT).
 */
export interface FetchSignal {
  cancel: AbortSignal;
  deadline: AbortSignal;
  any: AbortSignal;
}

/**
 * A fetch's signal, its deadline `deadlineMs` from now (the queue wait is over when this is
 * called). Throws on a deadline no timer accepts (timerMs): a bug of the caller's.
 */
export function fetchSignal(cancel: AbortSignal, deadlineMs: number): FetchSignal {
  const deadline = AbortSignal.timeout(timerMs(deadlineMs));
  return { cancel, deadline, any: AbortSignal.any([cancel, deadline]) };
}
