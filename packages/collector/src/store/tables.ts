import type { EdgeFactRow } from '../beacon/parseEdgeReport.js';
import type { ValidBatch } from '../beacon/ValidBatch.js';
import type { SqlValue } from './Store.js';

export type ColumnKind = 'text' | 'int' | 'double' | 'bool';

/** A table the stores append rows to: its columns in order, and the rows one batch gives it. */
export interface TableSpec {
  name: string;
  columns: readonly (readonly [name: string, kind: ColumnKind])[];
  rows(b: ValidBatch): SqlValue[][];
}

// The column lists here are the migrations' (migrations.ts) in the same order: one place says
// what a batch becomes, both stores write it (DuckDB through its appender, PostgreSQL as
// multi-row INSERTs).
export const SESSION_TABLE: TableSpec = {
  name: 'sessions',
  columns: [
    ['session_id', 'text'],
    ['first_received_ms', 'double'],
    ['target', 'text'],
    ['player', 'text'],
    ['stream', 'text'],
    ['scheme', 'text'],
    ['edge', 'text'],
    ['meta', 'text'],
  ],
  rows: (b) => [[b.session, b.receivedMs, b.target, b.dims.player, b.dims.stream, b.dims.scheme, b.dims.edge, b.metaJson]],
};

export const BATCH_TABLE: TableSpec = {
  name: 'batches',
  columns: [
    ['session_id', 'text'],
    ['seq', 'int'],
    ['received_ms', 'double'],
    ['sent_ms', 'double'],
    ['first_at_ms', 'double'],
    ['events', 'int'],
    ['startup_ms', 'double'],
    ['stall_count', 'int'],
    ['stall_ms', 'double'],
    ['segments', 'int'],
    ['segment_bytes', 'double'],
    ['final', 'bool'],
    // Added by migration 3, so last: DuckDB's appender fills the columns in table order.
    ['watch_ms', 'double'],
  ],
  rows: (b) => {
    const media = b.segments.filter((s) => s.kind === 'media');
    return [
      [
        b.session,
        b.seq,
        b.receivedMs,
        b.sentMs,
        b.firstAtMs,
        b.events.length,
        b.startup?.startupMs ?? null,
        b.stalls.length,
        b.stalls.reduce((a, s) => a + s.durationMs, 0),
        media.length,
        media.reduce((a, s) => a + s.bytes, 0),
        b.reportJson !== null,
        b.watchMs,
      ],
    ];
  },
};

export const EVENT_TABLE: TableSpec = {
  name: 'events',
  columns: [
    ['session_id', 'text'],
    ['seq', 'int'],
    ['idx', 'int'],
    ['type', 'text'],
    ['at_ms', 'double'],
    ['data', 'text'],
  ],
  rows: (b) => b.events.map((e, i) => [b.session, b.seq, i, e.type, e.atMs, e.json]),
};

export const SEGMENT_TABLE: TableSpec = {
  name: 'segments',
  columns: [
    ['session_id', 'text'],
    ['seq', 'int'],
    ['kind', 'text'],
    ['url', 'text'],
    ['track', 'text'],
    ['request_ms', 'double'],
    ['first_byte_ms', 'double'],
    ['last_byte_ms', 'double'],
    ['bytes', 'double'],
    ['throughput_bps', 'double'],
    ['transfer_bps', 'double'],
    ['duration_s', 'double'],
    ['rendition', 'text'],
    ['connection', 'text'],
  ],
  rows: (b) =>
    b.segments.map((s) => [
      b.session,
      b.seq,
      s.kind,
      s.url,
      s.track,
      s.requestMs,
      s.firstByteMs,
      s.lastByteMs,
      s.bytes,
      s.throughputBps,
      s.transferBps,
      s.durationS,
      s.rendition,
      s.connection,
    ]),
};

export const STALL_TABLE: TableSpec = {
  name: 'stalls',
  columns: [
    ['session_id', 'text'],
    ['seq', 'int'],
    ['received_ms', 'double'],
    ['start_ms', 'double'],
    ['end_ms', 'double'],
    ['duration_ms', 'double'],
    ['interrupted_by', 'text'],
  ],
  rows: (b) => b.stalls.map((s) => [b.session, b.seq, b.receivedMs, s.startMs, s.endMs, s.durationMs, s.interruptedBy]),
};

export const LATENCY_TABLE: TableSpec = {
  name: 'latency',
  columns: [
    ['session_id', 'text'],
    ['seq', 'int'],
    ['received_ms', 'double'],
    ['at_ms', 'double'],
    ['true_latency_s', 'double'],
    ['edge_distance_s', 'double'],
    ['hold_s', 'double'],
  ],
  rows: (b) => b.latency.map((l) => [b.session, b.seq, b.receivedMs, l.atMs, l.trueLatencyS, l.edgeDistanceS, l.holdS]),
};

export const REPORT_TABLE: TableSpec = {
  name: 'reports',
  columns: [
    ['session_id', 'text'],
    ['seq', 'int'],
    ['received_ms', 'double'],
    ['report', 'text'],
  ],
  rows: (b) => (b.reportJson === null ? [] : [[b.session, b.seq, b.receivedMs, b.reportJson]]),
};

/** Every table a batch writes to, after its `batches` row (the dedupe key) and its session. */
export const CHILD_TABLES: readonly TableSpec[] = [EVENT_TABLE, SEGMENT_TABLE, STALL_TABLE, LATENCY_TABLE, REPORT_TABLE];

/** An edge's report of its sessions (POST /v1/edge): not a batch, so its own spec. */
export const EDGE_SESSION_COLUMNS: readonly (readonly [string, ColumnKind])[] = [
  ['edge', 'text'],
  ['session_id', 'text'],
  ['stream', 'text'],
  ['received_ms', 'double'],
  ['hold', 'int'],
  ['policy_group', 'text'],
  ['redirect_location', 'text'],
  ['manifests', 'int'],
  ['hits', 'int'],
  ['coalesced', 'int'],
  ['misses', 'int'],
  ['first_at_ms', 'double'],
  ['last_at_ms', 'double'],
];
export const edgeSessionRow = (f: EdgeFactRow): SqlValue[] => [
  f.edge,
  f.session,
  f.stream,
  f.receivedMs,
  f.hold,
  f.group,
  f.redirectLocation,
  f.manifests,
  f.hits,
  f.coalesced,
  f.misses,
  f.firstAtMs,
  f.lastAtMs,
];
