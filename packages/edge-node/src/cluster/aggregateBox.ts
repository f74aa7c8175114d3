import { AggregatorRegistry, type MetricType, type Registry, type RegistryContentType } from 'prom-client';
import type { EdgeLoadReport } from '../fleet/EdgeLoadReport.js';
import type { MetricsJson, WorkerReport } from './clusterMessages.js';

/** The box of `serve --workers` in numbers: its workers' (tier="edge") and its parent's (tier="parent"). */
export interface BoxNumbers {
  registry: Registry<RegistryContentType>;
  load: EdgeLoadReport;
}

/**
 * Aggregate a box: every worker's metrics summed by label set (prom-client's AggregatorRegistry,
 * with each metric's own aggregator: x and lead take the max, RTTs and rates the average), under
 * `tier="edge"`; the parent tier's own metrics beside them under `tier="parent"` (its
 * `ethle_origin_bytes_total` is the box's backhaul, the workers' is loopback from the parent);
 * `ethle_workers{state}` says how many run and how many answered. The load report sums
 * connections, their limits and bytes sent; the box is ready when one of its workers is.
 */
export function aggregateBox(o: {
  reports: WorkerReport[];
  running: number;
  parent: MetricsJson;
  egressCapacityMbps: number | null;
  pid: number;
  atMs: number;
}): BoxNumbers {
  const tagged = (m: MetricsJson, tier: string): MetricsJson =>
    m.map((x) => ({ ...x, values: x.values.map((v) => ({ ...v, labels: { ...v.labels, tier } })) }));
  const workers: MetricsJson = [
    {
      name: 'ethle_workers',
      help: 'worker processes of serve --workers: running, and answered this scrape',
      // prom-client's types declare a numeric enum; at run time (and in getMetricsAsJSON) it is the string.
      type: 'gauge' as unknown as MetricType,
      aggregator: 'sum',
      values: [
        { value: o.running, labels: { state: 'running' } },
        { value: o.reports.length, labels: { state: 'answered' } },
      ],
    },
  ];
  const registry = AggregatorRegistry.aggregate([
    ...o.reports.map((r) => tagged(r.metrics, 'edge')),
    tagged(o.parent, 'parent'),
    workers,
  ] as Parameters<typeof AggregatorRegistry.aggregate>[0]);
  const loads = o.reports.map((r) => r.load);
  const ready = loads.some((l) => l.ready);
  const reasons = [...new Set(loads.filter((l) => !l.ready).map((l) => l.reason ?? 'unknown'))];
  const load: EdgeLoadReport = {
    ready,
    ...(ready ? {} : { reason: loads.length === 0 ? 'no worker answered' : reasons.join('; ') }),
    connections: loads.reduce((a, l) => a + l.connections, 0),
    maxConnections: loads.reduce((a, l) => a + l.maxConnections, 0),
    sentBytes: loads.reduce((a, l) => a + l.sentBytes, 0),
    egressCapacityMbps: o.egressCapacityMbps,
    pid: o.pid,
    workers: { running: o.running, answered: loads.length },
    atMs: o.atMs,
  };
  return { registry, load };
}
