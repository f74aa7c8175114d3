export { planPrefetch, type PrefetchInput, type PrefetchPlan, type IdSet } from './planPrefetch.js';
export {
  planDeadlines,
  type PrefetchDeadlines,
  type DeadlineSplit,
  type DeadlineMiss,
  type DeadlineOutcome,
  type DeadlineQueue,
} from './planDeadlines.js';
export { segmentDeadlineMs } from './segmentDeadlineMs.js';
export { rangesByNeed } from './rangesByNeed.js';
