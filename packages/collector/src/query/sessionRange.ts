/**
 * How a query splits sessions by a time range [from, to) on their batches' arrival, so it reads a
 * session's kept totals (sessions' columns, migration 4) wherever they are the range's answer and
 * sums batches only for the sessions the range cuts. `from` and `to` are SQL ($n parameters); `s`
 * is the sessions table's alias. A session without totals (no batch) is in neither.
 */

/** Every batch of the session arrived in the range: its totals are the range's. */
export const wholeIn = (from: string, to: string, s = 's') => `${s}.min_received_ms >= ${from} AND ${s}.max_received_ms < ${to}`;

/** Some of the session's batches may be in the range, not all: sum those that are. */
export const cutBy = (from: string, to: string, s = 's') =>
  `${s}.max_received_ms >= ${from} AND ${s}.min_received_ms < ${to} AND NOT (${wholeIn(from, to, s)})`;

/** A batch's time watched (WatchClock's, or sent − first event for rows from before migration 3). */
export const BATCH_WATCH_MS = 'coalesce(b.watch_ms, greatest(0, b.sent_ms - b.first_at_ms))';
