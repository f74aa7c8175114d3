import type { Logger } from 'pino';
import type { EdgeConfig } from './config/EdgeConfig.js';
import type { BoxAnswer } from './cluster/BoxView.js';
import type { EdgeEvents } from './events/EdgeEvents.js';
import type { EdgeLoadReport } from './fleet/EdgeLoadReport.js';
import type { EdgeMetrics } from './metrics/EdgeMetrics.js';

export interface RunningEdge {
  /** Base URL the edge listens on, e.g. http://127.0.0.1:40123 */
  url: string;
  events: EdgeEvents;
  metrics: EdgeMetrics;
  config: EdgeConfig;
  /** What the edge holds now: every bounded structure's size (operators, tests, the soak). */
  stats(): EdgeStats;
  /** This edge's own load report (what GET /_ethle/load answers outside `serve --workers`). */
  load(): EdgeLoadReport;
  /**
   * Stop accepting, let responses in progress finish within `drainMs`, then abort origin
   * fetches, stop pollers and timers, unsubscribe from RNI.
   */
  close(): Promise<void>;
}

export interface EdgeStats {
  streams: number;
  /** LL-HLS blocking reloads parked at the edge now (all streams; ≤ maxBlockedPerStream each). */
  blocked: number;
  sessions: number;
  cacheEntries: number;
  cacheBytes: number;
  /** Bytes held for receivers outside the cache (same budget as cacheBytes: their sum ≤ cache.maxBytes). */
  transitBytes: number;
  /** Bytes of entries with a receiver attached (never evictable while so). */
  pinnedBytes: number;
  /** Segment responses under a send deadline now. */
  sendTracked: number;
  segmentIndex: number;
  originFetchesRunning: number;
  originFetchesQueued: number;
  connections: number;
  /** Clients (IPv4 address, IPv6 /64) with a connection open (each at most maxConnectionsPerClient). */
  clients: number;
  /** Receivers whose delivery rate the edge has measured. */
  radioReceivers: number;
}

export interface StartEdgeOptions {
  /** Pino logger to use instead of creating one from config.logLevel. */
  logger?: Logger;
  /**
   * A worker of `serve --workers`: /metrics and /_ethle/load answer for the whole box, from the
   * primary (BoxView), not for this process alone.
   */
  box?: () => Promise<BoxAnswer>;
}
