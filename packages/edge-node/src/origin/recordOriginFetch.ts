import type { HoldPolicy } from '@ethle/core';
import { decideStreamHold, isColdConnection } from '@ethle/core';
import type { Logger } from 'pino';
import type { EdgeConfig } from '../config/EdgeConfig.js';
import type { EdgeEvents } from '../events/EdgeEvents.js';
import type { SummedWarnings } from '../log/SummedWarnings.js';
import type { EdgeMetrics } from '../metrics/EdgeMetrics.js';
import type { OriginFetchReport } from './OriginFetchReport.js';

/** Below this an object (init segment, audio) measures the RTT more than the throughput. */
const MIN_MEASURED_BYTES = 100_000;

/**
 * What every origin fetch feeds: metrics, the policy's backhaul samples (single-flow segment
 * fetches only — a segment fetched as parallel ranges says nothing about one flow — on a
 * connection that has carried a segment before), the model's
 * prediction for the same size (metrics), a warning for failures, and the 'origin-fetch' event.
 */
export function recordOriginFetch(o: {
  config: EdgeConfig;
  metrics: EdgeMetrics;
  policy: HoldPolicy;
  events: EdgeEvents;
  log: Logger;
  /** Failed fetches are warned of summed per origin, kind and outcome (a junk flood, one line per 10 s). */
  warnings: SummedWarnings;
  rttFor: (origin: string) => number | undefined;
  /** Whether the upstream is a parent edge: its cache answers, not the origin's TCP, so nothing is learnt of the origin's idle behaviour. */
  isTier?: (origin: string) => boolean;
}) {
  const { metrics, policy, events, log, config } = o;
  return (r: OriginFetchReport): void => {
    metrics.originFetches.inc({ origin: r.origin, kind: r.kind, outcome: r.outcome });
    // Every fetch's timing at debug (an experiment's edge log, EXP_EDGE_LOG=1): when a segment
    // reached the edge, in how many ranges and beside how many flows is what explains a miss.
    if (r.kind !== 'manifest' && log.isLevelEnabled('debug'))
      log.debug(
        {
          origin: r.origin,
          path: r.path,
          kind: r.kind,
          outcome: r.outcome,
          bytes: r.bytes,
          parts: r.parts,
          ttfbMs: r.ttfbMs === undefined ? undefined : Math.round(r.ttfbMs),
          totalMs: Math.round(r.totalMs),
          meanFlows: r.meanFlows === undefined ? undefined : Math.round(r.meanFlows * 10) / 10,
        },
        'origin fetch',
      );
    if (r.outcome === 'timeout') metrics.originTimeouts.inc({ origin: r.origin, kind: r.kind, reason: r.timeout ?? 'unknown' });
    metrics.bytesIn.inc({ origin: r.origin, kind: r.kind, outcome: r.outcome }, r.bytes);
    if (r.outcome === 'ok' && r.kind !== 'manifest' && r.parts === 1 && r.bytes > 0 && r.totalMs > 0) {
      const measured = (r.bytes * 8) / (r.totalMs * 1000);
      if (r.bytes >= MIN_MEASURED_BYTES) {
        metrics.backhaulMbps.set({ origin: r.origin, source: 'measured' }, measured);
        const cold = isColdConnection(r.connectionBytesBefore, r.bytes);
        const regime = policy.addBackhaulSample(r.origin, measured, r.meanFlows ?? 1, Date.now(), cold);
        metrics.backhaulSegmentMbps.observe({ origin: r.origin, flows: regime }, measured);
        const rttMs = o.rttFor(r.origin);
        if (
          !cold &&
          r.connectionIdleMs !== undefined &&
          r.burstBytes !== undefined &&
          r.burstMs !== undefined &&
          rttMs !== undefined &&
          rttMs > 0 &&
          o.isTier?.(r.origin) !== true
        ) {
          const before = policy.learnedSegmentStart(r.origin);
          // The head of the object: the whole of a large one runs at the bottleneck either way.
          const verdict = policy.addIdleFetch(r.origin, {
            bytes: r.burstBytes,
            totalMs: r.burstMs,
            idleMs: r.connectionIdleMs,
            rttMs,
            initialWindow: config.initialWindow,
          });
          if (verdict === 'warm' || verdict === 'slow-start') {
            metrics.idleFetches.inc({ origin: r.origin, start: verdict });
            // Each verdict's evidence, for an experiment's edge log: the learnt start is only logged when it changes.
            log.debug(
              {
                origin: r.origin,
                path: r.path,
                verdict,
                idleMs: Math.round(r.connectionIdleMs),
                headBytes: r.burstBytes,
                headMs: Math.round(r.burstMs),
              },
              'idle fetch',
            );
          }
          const learned = policy.learnedSegmentStart(r.origin);
          if (learned !== undefined && learned !== before) {
            // Said whatever is configured: an origin that keeps its window while the model assumes
            // slow start holds receivers further back than they need (or the reverse stalls them).
            log.info(
              { origin: r.origin, learned, configured: config.segmentStart, inUse: policy.segmentStart(r.origin) },
              'origin segment start learnt',
            );
          }
        }
      }
      const rtt = o.rttFor(r.origin);
      if (rtt !== undefined) {
        try {
          // th_bh depends on size and RTT only; segment length and radio are placeholders here.
          const model = decideStreamHold({
            rttMs: Math.max(rtt, 0.05),
            segmentBytes: r.bytes,
            segmentSeconds: 2,
            ranMbps: 1e6,
            initialWindow: config.initialWindow,
            maxHold: config.maxHold,
          });
          metrics.backhaulMbps.set({ origin: r.origin, source: 'model' }, model.backhaulMbps);
        } catch (error) {
          // An object outside the model's range (e.g. larger than any segment): no prediction.
          events.emit('error', { where: 'model', error: error as Error });
        }
      }
    }
    if (r.outcome !== 'ok' && r.outcome !== 'closed' && r.outcome !== 'cancelled') {
      const fields = { origin: r.origin, path: r.path, kind: r.kind, outcome: r.outcome, timeout: r.timeout, status: r.status };
      // Each one at debug (an experiment's edge log); at warn, summed per kind.
      if (log.isLevelEnabled('debug')) log.debug(fields, 'origin fetch failed');
      o.warnings.warn(`origin-fetch|${r.origin}|${r.kind}|${r.outcome}|${r.timeout}|${r.status}`, fields, 'origin fetch failed');
    }
    events.emit('origin-fetch', r);
  };
}
