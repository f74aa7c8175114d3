import type { SegmentTiming } from '../Events.js';

/** What an adapter tells the probe. All times are epoch ms on the probe's client clock. */
export interface AdapterSink {
  segment(s: SegmentTiming): void;
  /** A response and its Date header (or null), to sync the clock to the server's. */
  clock(sendMs: number, recvMs: number, dateHeader: string | null): void;
  /** X-Ethle-Hold-Seconds of a manifest response, if present. */
  hold(header: string | null): void;
  switched(track: string, to: string, bitrate: number | null): void;
  error(source: string, detail: string, message: string, fatal: boolean): void;
  /** The player says its buffer ran dry (cross-check for the stall detector). */
  hint(signal: string): void;
}

export interface LatencyReading {
  trueLatency: number | null;
  edgeDistance: number | null;
}

export interface Adapter {
  /** The media element, once the player has one. */
  media(): HTMLMediaElement | null;
  /** serverNowMs is null until the clock is synced: then true latency is unknown, never guessed. */
  latency(serverNowMs: number | null, holdSeconds: number): LatencyReading;
  /** A URL on the stream's server the probe may GET to refine the clock (the manifest), once known. */
  timeUrl(): string | null;
  /** A probe GET of timeUrl() came back (client times). */
  observe?(sendMs: number, recvMs: number, body: string): void;
  /** Client time to send the next probe GET for the adapter's own timing, or null if none is needed. */
  nextProbeAt?(nowMs: number): number | null;
  /** HLS: how long after production a segment shows up in the playlist (ms ± ms), once measured. */
  manifestLag?(): { ms: number; precisionMs: number } | null;
  destroy(): void;
}

/** What the probe lends an adapter. */
export interface AdapterContext {
  /**
   * Client ms → server ms, or null while the clock is not precise enough to time a manifest.
   * bound −1 / +1: the earliest / latest the server's clock may read then (the estimate ∓ its precision).
   */
  toServer(clientMs: number, bound?: -1 | 0 | 1): number | null;
  /** Smallest round trip seen to the stream's server, ms. */
  rtt(): number;
}

/** The probe's client clock: monotonic, in epoch ms (performance.timeOrigin + performance.now()). */
export const clientNow = (): number => performance.timeOrigin + performance.now();
/** A performance.now() reading on the probe's client clock. */
export const fromPerf = (t: number): number => performance.timeOrigin + t;

export function timing(
  kind: SegmentTiming['kind'],
  url: string,
  track: string,
  requestStart: number,
  firstByte: number,
  lastByte: number,
  bytes: number,
  duration: number,
  rendition: string,
): SegmentTiming {
  const rate = (ms: number) => (ms > 0 ? (bytes * 8000) / ms : 0);
  return {
    kind,
    url,
    track,
    requestStart,
    firstByte,
    lastByte,
    bytes,
    throughputBps: rate(lastByte - requestStart),
    transferBps: rate(lastByte - firstByte),
    duration,
    rendition,
  };
}
