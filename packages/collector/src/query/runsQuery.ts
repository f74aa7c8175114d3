import type { Store } from '../store/Store.js';
import type { FleetFilter } from './FleetFilter.js';
import { sessionQuery } from './sessionQuery.js';
import { sessionsQuery } from './sessionsQuery.js';

/**
 * The newest sessions as runs in the results format the dashboard's per-run charts and the
 * experiments share (docs/interfaces.md, "Results file format"): the scenario from the session's
 * labels, the report rebuilt from its stored events. Rows, not aggregates: the fleet view's
 * aggregates are fleetQuery's SQL.
 */
export async function runsQuery(
  store: Store,
  f: FleetFilter,
  limit: number,
  perSession: number,
): Promise<{ v: 1; title: string; runs: unknown[] }> {
  const list = await sessionsQuery(store, f, limit, 0);
  const runs: unknown[] = [];
  for (const s of list) {
    const d = await sessionQuery(store, s.session, perSession);
    if (d === null) continue;
    const series = d.latency.map((l) => ({ at: l.atMs, trueLatency: l.trueLatencyS, edgeDistance: l.edgeDistanceS, holdSeconds: l.holdS }));
    const known = series.filter((l) => l.trueLatency !== null).map((l) => l.trueLatency!);
    const media = d.segments.filter((x) => x.kind === 'media');
    const first = Math.min(...d.batches.map((b) => b.sentMs), ...d.events.map((e) => e.atMs));
    const last = Math.max(...d.batches.map((b) => b.sentMs));
    runs.push({
      v: 1,
      id: s.session,
      startedAt: new Date(s.firstReceivedMs).toISOString(),
      scenario: {
        stream: s.stream,
        player: s.target === 'dash' ? 'dash' : 'hls',
        scheme: s.scheme || 'unknown',
        durationS: Number.isFinite(last - first) ? (last - first) / 1000 : 0,
      },
      report: {
        startupMs: s.startupMs,
        stalls: {
          count: s.stalls,
          totalMs: s.stallMs,
          list: d.stalls.map((x) => ({ start: x.startMs, end: x.endMs, durationMs: x.durationMs })),
        },
        latency: { current: known.at(-1) ?? null, mean: known.length ? known.reduce((a, b) => a + b, 0) / known.length : null },
        holdSeconds: series.at(-1)?.holdSeconds ?? 0,
        latencySeries: series,
        segments: {
          count: s.segments,
          bytes: media.reduce((a, x) => a + x.bytes, 0),
          list: d.segments.map((x) => ({
            kind: x.kind,
            url: x.url,
            requestStart: x.requestMs,
            lastByte: x.lastByteMs,
            bytes: x.bytes,
            throughputBps: x.throughputBps,
            ...(x.connection ? { connection: x.connection } : {}),
          })),
        },
      },
    });
  }
  return { v: 1, title: `${runs.length} sessions, newest first`, runs };
}
