import type { BeaconOptions } from '../options.js';

/** One POST to the collector (see README "Beacon format"). */
export interface BeaconBatch {
  v: 1;
  session: string;
  /** 0, 1, 2… per session, so a collector can spot a lost batch. */
  seq: number;
  /** 'hls' | 'dash' | 'shaka' | 'media' */
  target: string;
  sentAt: number;
  /** The `beacon.meta` labels, on every batch (absent when none were given). */
  meta?: Record<string, string | number | boolean>;
  events: { type: string; data: unknown }[];
  /** The full report() — on the last batch (pagehide or destroy). */
  report?: unknown;
}

export interface Beacon {
  push(type: string, data: unknown): void;
  /** Send what is queued now; with a report when the session is ending. */
  flush(report?: unknown): void;
  close(report: unknown): void;
}

/**
 * Batches events to a collector. Sends with navigator.sendBeacon (survives page unload) as
 * text/plain, a CORS-safelisted type, so no preflight is needed; falls back to fetch keepalive.
 * Flushes on a timer, when the batch is full, and on `pagehide` (the last reliable moment on mobile).
 */
export function createBeacon(
  options: Required<BeaconOptions>,
  session: string,
  target: string,
  now: () => number,
  report: () => unknown,
): Beacon {
  let queue: BeaconBatch['events'] = [];
  let seq = 0;
  const hasMeta = Object.keys(options.meta).length > 0;
  const send = (body: string) => {
    try {
      if (navigator.sendBeacon?.(options.url, body)) return;
    } catch {
      // sendBeacon refuses bodies over its quota: fall through to fetch
    }
    fetch(options.url, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'text/plain' } }).catch(() => {});
  };
  const flush = (rep?: unknown) => {
    if (queue.length === 0 && rep === undefined) return;
    const batch: BeaconBatch = { v: 1, session, seq: seq++, target, sentAt: now(), events: queue };
    if (hasMeta) batch.meta = options.meta;
    if (rep !== undefined) batch.report = rep;
    queue = [];
    send(JSON.stringify(batch));
  };
  const timer = setInterval(() => flush(), options.intervalMs);
  const onHide = () => flush(report());
  addEventListener('pagehide', onHide);
  return {
    push(type, data) {
      queue.push({ type, data });
      if (queue.length >= options.maxEvents) flush();
    },
    flush,
    close(rep) {
      clearInterval(timer);
      removeEventListener('pagehide', onHide);
      flush(rep);
    },
  };
}
