import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { EdgeLoadReport } from '../fleet/EdgeLoadReport.js';

/** A registry's metrics as JSON (prom-client getMetricsAsJSON), as they cross the IPC channel. */
export type MetricsJson = Array<Omit<MetricObjectWithValues<MetricValue<string>>, 'collect'>>;

/** One worker's numbers, for the box's aggregate. */
export interface WorkerReport {
  metrics: MetricsJson;
  load: EdgeLoadReport;
}

/**
 * The IPC messages between the primary of `serve --workers` and its workers (node:cluster's
 * channel; every message carries `ethle` so others on the channel are told apart).
 * - primary → worker `drain`: stop accepting, finish transfers within drainMs, exit.
 * - primary → worker `report?` / worker → primary `report`: the worker's metrics and load.
 * - worker → primary `box?` / primary → worker `box`: the whole box's metrics or load, for a
 *   scrape or a steering probe that reached this worker.
 */
export type ToWorker =
  | { ethle: 'drain' }
  | { ethle: 'report?'; id: number }
  | { ethle: 'box'; id: number; metrics: string; contentType: string; load: EdgeLoadReport };

export type ToPrimary = { ethle: 'report'; id: number; report: WorkerReport } | { ethle: 'box?'; id: number };

const isOurs = (m: unknown): boolean => typeof m === 'object' && m !== null && typeof (m as { ethle?: unknown }).ethle === 'string';

/** A message of ours from the primary (others may share the channel). */
export function isToWorker(m: unknown): m is ToWorker {
  return isOurs(m);
}

/** A message of ours from a worker. */
export function isToPrimary(m: unknown): m is ToPrimary {
  return isOurs(m);
}
