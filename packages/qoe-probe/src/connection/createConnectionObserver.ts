import type { SegmentTiming } from '../Events.js';

/** How many recent requests are kept waiting for their Resource Timing entry (or the reverse). */
const MAX_PENDING = 32;

export interface ConnectionObserver {
  /** A request the adapter timed: labelled now if its entry has arrived, else when it does. */
  label(s: SegmentTiming): void;
  /**
   * The network stack's own timing of a request whose URL carries the fragment `#ethle-sync…`
   * (the probe's clock GETs; a fragment is never sent, but names the entry): request sent and
   * first response byte, ms on performance.now(); undefined until its entry has arrived.
   */
  sent(name: string): [requestStart: number, responseStart: number] | undefined;
  disconnect(): void;
}

/** The subset of PerformanceResourceTiming read here. */
interface ResourceEntry {
  name: string;
  connectStart: number;
  connectEnd: number;
  requestStart: number;
  responseStart: number;
}

/**
 * Labels each media request with whether it opened a new connection (`connection: 'new'`) or
 * reused one ('reused'), from Resource Timing: a new connection has a TCP (and TLS) phase,
 * connectEnd > connectStart; a reused one has none. Over a long-RTT path this is the difference
 * between a segment in slow start and one on a warm flow, which the loaders' own timing cannot
 * tell apart. Cross-origin media needs `Timing-Allow-Origin` (the live origin and the edge send
 * `*`); without it the connect phase reads 0 and requests stay unlabelled.
 *
 * Entries come from a PerformanceObserver, not the page's buffer (which fills at 250 by default
 * and belongs to the page), and may arrive before or after the adapter reports the request, so
 * both sides wait in small bounded maps keyed by URL.
 */
export function createConnectionObserver(): ConnectionObserver | null {
  const PO = (globalThis as { PerformanceObserver?: typeof PerformanceObserver }).PerformanceObserver;
  if (typeof PO !== 'function') return null;
  const labels = new Map<string, 'new' | 'reused'>();
  const syncs = new Map<string, [number, number]>();
  const waiting = new Map<string, SegmentTiming>();
  const bounded = <V>(m: Map<string, V>, k: string, v: V) => {
    m.delete(k);
    m.set(k, v);
    if (m.size > MAX_PENDING) m.delete(m.keys().next().value!);
  };
  let po: PerformanceObserver;
  try {
    po = new PO((list) => {
      for (const e of list.getEntries() as unknown as ResourceEntry[]) {
        if (e.name.includes('#ethle-sync') && e.responseStart > 0) bounded(syncs, e.name, [e.requestStart, e.responseStart]);
        // No Timing-Allow-Origin: the connect phase is zeroed, nothing to tell.
        if (!(e.connectStart > 0)) continue;
        const label = e.connectEnd > e.connectStart ? 'new' : 'reused';
        const s = waiting.get(e.name);
        if (s) {
          s.connection = label;
          waiting.delete(e.name);
        } else bounded(labels, e.name, label);
      }
    });
    po.observe({ type: 'resource', buffered: false });
  } catch {
    return null; // a browser without resource entries for observers
  }
  return {
    label(s) {
      const l = labels.get(s.url);
      if (l) {
        s.connection = l;
        labels.delete(s.url);
      } else bounded(waiting, s.url, s);
    },
    sent: (name) => syncs.get(name),
    disconnect() {
      po.disconnect();
      syncs.clear();
      labels.clear();
      waiting.clear();
    },
  };
}
