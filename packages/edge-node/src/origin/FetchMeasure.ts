import { performance } from 'node:perf_hooks';
import type { EdgeError } from '../errors/EdgeError.js';
import type { ConnectionProbe } from './ConnectionWatch.js';
import type { FlowSpan } from './FlowMeter.js';
import type { FetchKind, FetchOutcome, FetchTimeoutReason, OriginFetchReport } from './OriginFetchReport.js';
import { outcomeOf, timeoutOf } from './outcomeOf.js';

/** Where every fetch's report goes (metrics, events, the model's backhaul samples). */
export type FetchSink = (report: OriginFetchReport) => void;

export interface FetchMeasureOptions {
  origin: string;
  path: string;
  kind: FetchKind;
  sink: FetchSink;
  /** Concurrent byte ranges the object is fetched as (1: one request). */
  parts?: number;
  /** Segments: the fetch's share of the flows to the origin (FlowMeter). */
  span?: FlowSpan;
  /** Single-flow segments: what the fetch learns of its connection (ConnectionWatch). */
  probe?: ConnectionProbe;
  /** When the request was made (performance.now ms); now if not given. */
  t0?: number;
}

/**
 * The clock of one origin fetch, from its request to its report: time to the first byte, status,
 * and the report into the sink, once. Keeps the timing out of the fetch code's parameter lists.
 */
export class FetchMeasure {
  readonly t0: number;
  ttfbMs: number | undefined;
  status: number | undefined;
  readonly #o: FetchMeasureOptions;

  constructor(o: FetchMeasureOptions) {
    this.#o = o;
    this.t0 = o.t0 ?? performance.now();
  }

  /** The response's headers are in: returns the time to them (ms). */
  responded(status: number): number {
    this.ttfbMs = performance.now() - this.t0;
    this.status = status;
    return this.ttfbMs;
  }

  /** The fetch failed with `err` after `bytes`: its outcome, and which limit if it timed out. */
  failed(err: EdgeError, bytes: number): void {
    this.report(outcomeOf(err), bytes, undefined, timeoutOf(err));
  }

  /**
   * The fetch ended with `outcome` after `bytes`; `parts` overrides the planned count (an origin
   * that ignored Range sent the whole object on one request).
   */
  report(outcome: FetchOutcome, bytes: number, parts = this.#o.parts ?? 1, timeout?: FetchTimeoutReason): void {
    const { span } = this.#o;
    // A failed fetch says nothing of its connection's window: the probe's facts go with success only.
    const probe = outcome === 'ok' ? this.#o.probe : undefined;
    const meanFlows = span?.close();
    this.#o.sink({
      origin: this.#o.origin,
      path: this.#o.path,
      kind: this.#o.kind,
      outcome,
      ...(timeout === undefined ? {} : { timeout }),
      status: this.status,
      bytes,
      ttfbMs: this.ttfbMs,
      totalMs: performance.now() - this.t0,
      parts,
      ...(meanFlows === undefined ? {} : { meanFlows }),
      ...(probe?.bytesBefore === undefined ? {} : { connectionBytesBefore: probe.bytesBefore }),
      ...(probe?.idleMs === undefined ? {} : { connectionIdleMs: probe.idleMs }),
      ...(probe?.burstAtMs === undefined ? {} : { burstBytes: probe.burstBytes, burstMs: probe.burstAtMs - probe.t0 }),
    });
  }
}
