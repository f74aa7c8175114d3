export { planPrefetch, type PrefetchInput, type PrefetchPlan, type IdSet } from './planPrefetch.js';
