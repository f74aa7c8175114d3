import type { ErrorCode } from './ProbeError.js';
import type { Stall } from './stall/createStallDetector.js';

/** Every event a probe publishes. Times (`at`, `start`, …) are epoch ms on the client's clock. */
export const Events = {
  STARTUP: 'startup',
  STALL_START: 'stallStart',
  STALL_END: 'stallEnd',
  LATENCY: 'latency',
  SEGMENT: 'segment',
  SWITCH: 'switch',
  CLOCK: 'clock',
  ERROR: 'error',
} as const;

export type EventName = (typeof Events)[keyof typeof Events];

export interface StartupData {
  /** Load/play request → first rendered frame, ms. */
  startupMs: number;
  /** When the first frame was rendered. */
  at: number;
}

export interface StallStartData {
  /** Last progress before the stall. */
  start: number;
  /** When the probe noticed (start + threshold, roughly). */
  detectedAt: number;
  currentTime: number;
}

export interface LatencySample {
  at: number;
  /** Server-synced wall clock minus the production time of the frame on screen, s (null: unknown). */
  trueLatency: number | null;
  /** Distance to the manifest's live edge, s (DASH: by the MPD's clock, as dash.js `getCurrentLiveLatency()`; HLS: true latency − the playlist's lag, or hls.js `latency` until that is known). */
  edgeDistance: number | null;
  /** Hold the edge declared on the latest manifest (X-Ethle-Hold-Seconds), s; 0 if none. */
  holdSeconds: number;
}

export type SegmentKind = 'media' | 'init' | 'manifest';

export interface SegmentTiming {
  kind: SegmentKind;
  url: string;
  /** 'video' | 'audio' | 'main' | … as the player names the track; '' for manifests. */
  track: string;
  /** Request sent, first byte, last byte (epoch ms, the loader's own timing). */
  requestStart: number;
  firstByte: number;
  lastByte: number;
  bytes: number;
  /** bytes·8 / (lastByte − requestStart): what the receiver got, latency included. */
  throughputBps: number;
  /** bytes·8 / (lastByte − firstByte): the transfer rate once data flowed. */
  transferBps: number;
  /** Media duration, s (0 for init/manifest). */
  duration: number;
  /** Rendition: hls.js level index, dash.js representation id or Shaka stream id. */
  rendition: string;
  /**
   * Whether the request opened a new connection or reused one (Resource Timing; set once its
   * entry arrives, possibly after the 'segment' event). Absent when the browser cannot tell:
   * cross-origin media without `Timing-Allow-Origin`, or no PerformanceObserver.
   */
  connection?: 'new' | 'reused';
}

export interface SwitchData {
  at: number;
  /** 'main' (hls.js, Shaka variants) or the dash.js media type ('video', 'audio'). */
  track: string;
  from: string | null;
  to: string;
  /** Bits per second of the new rendition, if known. */
  bitrate: number | null;
}

export interface ClockData {
  offsetMs: number;
  precisionMs: number;
  samples: number;
}

export interface ErrorData {
  at: number;
  code: ErrorCode;
  /** Where it came from: 'hls' | 'dash' | 'shaka' | 'media' | 'listener'. */
  source: string;
  /** The player's own name or code for it, e.g. hls.js `details`, dash.js or Shaka error code, MediaError code. */
  detail: string;
  message: string;
  fatal: boolean;
}

/** Event → payload, like hls.js's HlsListeners. */
export interface QoeEventMap {
  startup: StartupData;
  stallStart: StallStartData;
  stallEnd: Stall;
  latency: LatencySample;
  segment: SegmentTiming;
  switch: SwitchData;
  clock: ClockData;
  error: ErrorData;
}

export type QoeListener<E extends EventName> = (data: QoeEventMap[E]) => void;
