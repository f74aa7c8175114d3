/** Beacon batches as the probe sends them (packages/qoe-probe README "Beacon format"). */
export interface BatchInput {
  session: string;
  seq: number;
  sentAt: number;
  target?: string;
  meta?: Record<string, string>;
  events?: { type: string; data: Record<string, unknown> }[];
  report?: Record<string, unknown>;
}

export function batch(b: BatchInput): Record<string, unknown> {
  return { v: 1, target: 'hls', events: [], ...b };
}

export const ev = {
  startup: (at: number, startupMs: number) => ({ type: 'startup', data: { startupMs, at } }),
  latency: (at: number, trueLatency: number | null, holdSeconds = 0) => ({
    type: 'latency',
    data: { at, trueLatency, edgeDistance: trueLatency === null ? null : trueLatency - holdSeconds, holdSeconds },
  }),
  stall: (start: number, durationMs: number) => ({
    type: 'stallEnd',
    data: { start, end: start + durationMs, durationMs, signals: ['waiting'] },
  }),
  segment: (requestStart: number, url: string, kind = 'media', bytes = 500_000) => ({
    type: 'segment',
    data: {
      kind,
      url,
      track: kind === 'manifest' ? '' : 'main',
      requestStart,
      firstByte: requestStart + 20,
      lastByte: requestStart + 120,
      bytes,
      throughputBps: (bytes * 8) / 0.12,
      transferBps: (bytes * 8) / 0.1,
      duration: kind === 'media' ? 2 : 0,
      rendition: '0',
    },
  }),
};
