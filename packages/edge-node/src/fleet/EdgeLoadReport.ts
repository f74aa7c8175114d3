/**
 * What an edge reports of its load at GET /_ethle/load (the steering service reads it each probe).
 * Counters, not rates: the reader takes the rate between two reports, so the edge keeps no window.
 * Under `serve --workers` it is the whole box's (aggregateBox), whichever worker answered.
 */
export interface EdgeLoadReport {
  ready: boolean;
  /** Why not ready (draining, an origin silent), when not. */
  reason?: string;
  /** Receiver connections open now, and the most this edge accepts. */
  connections: number;
  maxConnections: number;
  /** Segment bytes sent to receivers since the edge started. */
  sentBytes: number;
  /** The egress the operator gave this edge (Mbit/s), or null: unknown. */
  egressCapacityMbps: number | null;
  /** The process that answered (under `serve --workers`, the worker the request reached). */
  pid: number;
  /** Under `serve --workers`: the box's workers running, and how many answered for this report. */
  workers?: { running: number; answered: number };
  /** The edge's clock when it answered (ms since the epoch), for the rate between two reports. */
  atMs: number;
}

/** The path of the load report. */
export const LOAD_PATH = '/_ethle/load';
