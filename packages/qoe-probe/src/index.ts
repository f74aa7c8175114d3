export { attachProbe, type QoeProbe } from './attachProbe.js';
export { Events } from './Events.js';
export type {
  ClockData,
  ErrorData,
  EventName,
  LatencySample,
  QoeEventMap,
  QoeListener,
  SegmentKind,
  SegmentTiming,
  StallStartData,
  StartupData,
  SwitchData,
} from './Events.js';
export type { QoeReport } from './report.js';
export type { Summary } from './latency/summarize.js';
export type { BeaconBatch } from './beacon/createBeacon.js';
export type { BeaconOptions, ProbeOptions } from './options.js';
export { ErrorCodes, ProbeError, type ErrorCode } from './ProbeError.js';
export {
  createStallDetector,
  type PlaybackSample,
  type Stall,
  type StallDetector,
  type StallDetectorOptions,
  type StallOutput,
  type StallPhase,
} from './stall/createStallDetector.js';
export {
  createClockOffsetEstimator,
  parseHttpDate,
  type ClockEstimate,
  type ClockOffsetEstimator,
  type ClockSample,
} from './clock/createClockOffsetEstimator.js';
export { dashTrueLatency, hlsTrueLatency, programDateTimeAt } from './latency/trueLatency.js';
export { percentile, summarize } from './latency/summarize.js';
