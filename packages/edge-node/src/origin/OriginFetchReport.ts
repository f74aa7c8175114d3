export type FetchKind = 'manifest' | 'segment' | 'prefetch';
export type FetchOutcome =
  | 'ok'
  | 'timeout'
  | 'status'
  | 'truncated'
  | 'unreachable'
  | 'too_large'
  | 'closed'
  | 'cancelled'
  | 'cache_full'
  | 'redirect'
  | 'inconsistent'
  | 'overloaded'
  | 'internal';

/**
 * Which limit a timed-out fetch ran into: the edge's own (FetchPace: `idle`, `slow`, `deadline`)
 * or undici's (`headers`, `body`: no byte while the body was read, `connect`).
 */
export type FetchTimeoutReason = 'idle' | 'slow' | 'deadline' | 'headers' | 'body' | 'connect';

/** What one origin fetch did; feeds metrics, events and the throughput check of the model. */
export interface OriginFetchReport {
  origin: string;
  path: string;
  kind: FetchKind;
  outcome: FetchOutcome;
  /** Outcome `timeout`: which limit (undefined when the error did not say). */
  timeout?: FetchTimeoutReason;
  status: number | undefined;
  bytes: number;
  /** From sending the request to the first response byte (ms). */
  ttfbMs: number | undefined;
  /** From sending the request to the last byte (ms). */
  totalMs: number;
  /** Concurrent byte ranges the object came in (1 = one request): its rate is not one flow's. */
  parts: number;
  /**
   * Segments only: time-weighted mean number of segment flows open to this origin while this one
   * ran, its own included (1 = it had the backhaul to itself). See FlowMeter.
   */
  meanFlows?: number;
  /**
   * Single-flow segment fetches only: bytes the connection that carried the request had received
   * before it (0: a new connection). Undefined when the edge could not see the connection.
   */
  connectionBytesBefore?: number;
  /**
   * Single-flow segment fetches on a connection used before: the longest idle gap it had since it
   * last carried a segment, this request's included, ms. A sender restarts slow start at a send
   * after a gap past the RTO; a manifest in between (one small response, a round trip long)
   * neither opens the window nor hides such a gap.
   */
  connectionIdleMs?: number;
  /**
   * Single-flow segment fetches: the object's first `burstBytes` (1 MiB, or half a smaller
   * object) arrived `burstMs` after the request went out. How a window opens shows in these
   * bytes; a large object's whole time is the bottleneck's, whatever the window did.
   */
  burstBytes?: number;
  burstMs?: number;
}
