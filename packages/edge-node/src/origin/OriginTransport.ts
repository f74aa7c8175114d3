import type { CacheFill } from '../cache/CacheFill.js';
import type { ConnectionWatch } from './ConnectionWatch.js';
import type { FetchSink } from './FetchMeasure.js';
import type { FetchSignal } from './FetchSignal.js';
import type { FlowMeter } from './FlowMeter.js';
import type { OriginDispatcher } from './OriginDispatcher.js';
import type { FetchKind } from './OriginFetchReport.js';
import type { RttEstimator } from './RttEstimator.js';
import type { OnBug } from './toEdgeError.js';

/** What every fetch from one origin shares: its connections, measurements and report sink. */
export interface OriginTransport {
  /** The origin's configured name (reports say it). */
  readonly name: string;
  readonly dispatcher: OriginDispatcher;
  readonly rtt: RttEstimator;
  readonly flows: FlowMeter;
  readonly connections: ConnectionWatch;
  readonly sink: FetchSink;
  readonly onBug?: OnBug | undefined;
  /** The origin answered a byte range with the whole object: split no fetch there again. */
  rangesIgnored(): void;
}

/** One segment fetch: the object, what it fills, and how it is stopped. */
export interface SegmentFetch {
  /** The origin-relative path. */
  path: string;
  kind: FetchKind;
  fill: CacheFill;
  signal: FetchSignal;
}
