/** One probe event as stored: its type, its time (epoch ms on the probe's clock) and its data as JSON text. */
export interface StoredEvent {
  type: string;
  atMs: number;
  json: string;
}

export interface SegmentRow {
  kind: string;
  url: string;
  track: string;
  requestMs: number;
  firstByteMs: number;
  lastByteMs: number;
  bytes: number;
  throughputBps: number;
  transferBps: number;
  durationS: number;
  rendition: string;
  connection: string | null;
}

export interface StallRow {
  startMs: number;
  endMs: number;
  durationMs: number;
  interruptedBy: string | null;
}

export interface LatencyRow {
  atMs: number;
  trueLatencyS: number | null;
  edgeDistanceS: number | null;
  holdS: number;
}

/** What a session is split by in the fleet views (all '' when unknown). */
export interface SessionDimensions {
  player: string;
  stream: string;
  scheme: string;
  edge: string;
}

/**
 * A beacon batch that passed validation (parseBatch), flattened into the rows the stores write:
 * nothing in it can fail a constraint, so a store writes it whole or (on a database error) not at all.
 */
export interface ValidBatch {
  session: string;
  seq: number;
  target: string;
  /** When the probe sent it (its clock) and when the collector received it (the collector's clock), epoch ms. */
  sentMs: number;
  receivedMs: number;
  dims: SessionDimensions;
  /** The batch's `meta` labels as JSON text ('{}' when none). */
  metaJson: string;
  events: StoredEvent[];
  segments: SegmentRow[];
  stalls: StallRow[];
  latency: LatencyRow[];
  startup: { startupMs: number; atMs: number } | null;
  /** The final report (pagehide/destroy batch) as JSON text. */
  reportJson: string | null;
  /** Earliest event time in the batch (sentMs when it has none). */
  firstAtMs: number;
  /** Time watched this batch covers, ms (WatchClock); null: unknown (the queries then take sentMs − firstAtMs). */
  watchMs: number | null;
}
