import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

let last: number | undefined;
let observer: PerformanceObserver | undefined;

/**
 * The V8 heap in use just after this process's last full (mark-compact) GC, bytes; undefined
 * before the first. Live objects only: a heap sampled at any other moment carries whatever
 * garbage has built up since the last collection (tens of MB on a busy edge, more than a leak
 * adds in an hour), so a floor is what shows growth. Read when the GC's performance entry is
 * delivered (soon after it, with what was allocated since). One observer per process, started at
 * the first call and kept for the process's life.
 */
export function heapAfterFullGc(): number | undefined {
  if (observer === undefined) {
    observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if ((e as { detail?: { kind?: number } | null }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
          last = getHeapStatistics().used_heap_size;
          return;
        }
      }
    });
    observer.observe({ entryTypes: ['gc'] });
  }
  return last;
}
