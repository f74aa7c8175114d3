import type { HoldPolicy } from '@ethle/core';
import type { Logger } from 'pino';
import type { SegmentCache } from './cache/SegmentCache.js';
import type { BoxAnswer } from './cluster/BoxView.js';
import type { EdgeConfig, OriginConfig } from './config/EdgeConfig.js';
import type { EdgeEvents } from './events/EdgeEvents.js';
import type { FleetSteering } from './fleet/FleetSteering.js';
import type { EdgeLoadReport } from './fleet/EdgeLoadReport.js';
import type { SessionTokens } from './fleet/SessionTokens.js';
import type { SessionHandover } from './fleet/SessionHandover.js';
import type { EdgeMetrics } from './metrics/EdgeMetrics.js';
import type { OriginClient } from './origin/OriginClient.js';
import type { RadioMeter } from './radio/RadioMeter.js';
import type { RniSubscription } from './radio/RniSubscription.js';
import type { StreamRegistry } from './stream/StreamRegistry.js';
import type { SessionFacts } from './sessions/SessionFacts.js';
import type { SendDeadlines } from './http/SendDeadlines.js';

/** One configured origin at the edge. */
export interface Origin {
  cfg: OriginConfig;
  client: OriginClient;
  /** '' with a single origin, else '/{name}'. */
  prefix: string;
}

/**
 * What the request handlers share, built once by startEdge (the composition root) and passed
 * down as plain values: no handler reaches for a global.
 */
export interface EdgeContext {
  config: EdgeConfig;
  log: Logger;
  /** The edge's coarse wall clock (ms). */
  now: () => number;
  events: EdgeEvents;
  metrics: EdgeMetrics;
  cache: SegmentCache;
  policy: HoldPolicy;
  streams: StreamRegistry;
  origins: Map<string, Origin>;
  rni: RniSubscription | undefined;
  /** Segment responses' send deadlines (the slowest receiver the edge serves). */
  sendDeadlines: SendDeadlines;
  /** Each receiver's delivery rate as the edge measured it (radio leg). */
  radio: RadioMeter;
  /** What the edge did per receiver session (GET /_ethle/sessions, the collector report). */
  sessions: SessionFacts;
  /** The fleet this edge steers players within (content steering), if configured. */
  fleet: FleetSteering | undefined;
  /** Portable session tokens (handover between the fleet's edges), if a fleet secret is configured. */
  sessionTokens: SessionTokens | undefined;
  /** Asks the peer that issued a receiver's token for its state (HLS handover), with tokens and peers configured. */
  handover: SessionHandover | undefined;
  /** Why the edge should not get receivers now (draining, an origin silent), or undefined: ready. */
  notReady(): string | undefined;
  /** This edge's load (GET /_ethle/load), for a steering service. */
  load(): EdgeLoadReport;
  /** Under `serve --workers`: the box's metrics and load, which /metrics and /_ethle/load answer. */
  box: (() => Promise<BoxAnswer>) | undefined;
  /** Backhaul RTT to an origin (configured, else measured), ms. */
  rttFor(origin: string): number | undefined;
  /**
   * A bug caught at the boundary of one request or fetch (`where`): logged with its stack (and
   * `details`, e.g. the stream), counted (ethle_internal_errors_total) and published as an
   * 'error' event. The caller fails that one request or fetch; the edge keeps serving.
   */
  bug(where: string, error: unknown, details?: Record<string, unknown>): void;
}
