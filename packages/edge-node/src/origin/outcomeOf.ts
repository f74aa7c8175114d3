import type { EdgeError } from '../errors/EdgeError.js';
import type { FetchOutcome, FetchTimeoutReason } from './OriginFetchReport.js';

/** The report's outcome for a fetch that failed with `e`. */
export function outcomeOf(e: EdgeError): FetchOutcome {
  switch (e.code) {
    case 'ERR_EDGE_ORIGIN_TIMEOUT':
      return 'timeout';
    case 'ERR_EDGE_ORIGIN_STATUS':
      return 'status';
    case 'ERR_EDGE_ORIGIN_TRUNCATED':
      return 'truncated';
    case 'ERR_EDGE_ORIGIN_TOO_LARGE':
      return 'too_large';
    case 'ERR_EDGE_CLOSED':
      return 'closed';
    case 'ERR_EDGE_CANCELLED':
      return 'cancelled';
    case 'ERR_EDGE_CACHE_FULL':
      return 'cache_full';
    case 'ERR_EDGE_ORIGIN_REDIRECT':
      return 'redirect';
    case 'ERR_EDGE_ORIGIN_INCONSISTENT':
      return 'inconsistent';
    case 'ERR_EDGE_OVERLOADED':
      return 'overloaded';
    case 'ERR_EDGE_INTERNAL':
      return 'internal';
    default:
      return 'unreachable';
  }
}

/** Which limit a fetch that failed with `e` ran into, if it timed out (toEdgeError's `timeout` detail). */
export function timeoutOf(e: EdgeError): FetchTimeoutReason | undefined {
  return e.code === 'ERR_EDGE_ORIGIN_TIMEOUT' ? (e.details.timeout as FetchTimeoutReason | undefined) : undefined;
}
