import { PerformanceObserver, constants } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { EdgeMetrics } from '../../src/metrics/EdgeMetrics.js';

// ethle_heap_live_bytes, the soak's heap: the heap just after the last full GC, so what stays
// referenced raises it and garbage does not. Full GCs are forced here (gc() from V8's flag).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A full GC, resolved once its performance entry was delivered (after the edge's observer, registered first, had it). */
function fullGc(): Promise<void> {
  return new Promise((resolve) => {
    const o = new PerformanceObserver((list) => {
      if (
        list.getEntries().some((e) => (e as { detail?: { kind?: number } | null }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
      ) {
        o.disconnect();
        resolve();
      }
    });
    o.observe({ entryTypes: ['gc'] });
    gc();
  });
}

async function live(m: EdgeMetrics): Promise<number> {
  const text = await m.registry.getSingleMetricAsString('ethle_heap_live_bytes');
  return Number(/^ethle_heap_live_bytes (\S+)$/m.exec(text)?.[1]);
}

describe('ethle_heap_live_bytes', () => {
  it('rises with what stays referenced and falls when it is let go, whatever garbage there is', async () => {
    const m = new EdgeMetrics(true);
    await fullGc();
    const before = await live(m);
    expect(before).toBeGreaterThan(1_000_000);
    // ~20 MB kept (200,000 small objects with a string each), then a full GC.
    const holder: { kept?: Array<{ i: number; s: string }> } = {
      kept: Array.from({ length: 200_000 }, (_, i) => ({ i, s: `object ${i}` })),
    };
    await fullGc();
    const holding = await live(m);
    expect(holding - before).toBeGreaterThan(10_000_000);
    expect(holder.kept?.length).toBe(200_000);
    // Let go: the next full GC takes it, and the floor comes down with it.
    delete holder.kept;
    await fullGc();
    expect(holding - (await live(m))).toBeGreaterThan(10_000_000);
    // Without process metrics (tests' edges), no such series.
    expect(new EdgeMetrics(false).registry.getSingleMetric('ethle_heap_live_bytes')).toBeUndefined();
  });
});
