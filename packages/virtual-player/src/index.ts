export { startVirtualPlayer, type VirtualPlayer } from './startVirtualPlayer.js';
export { playVirtual } from './playVirtual.js';
export { createVirtualPlayerConfig, HLS_DEFAULTS, DASH_DEFAULTS } from './config/createVirtualPlayerConfig.js';
export type { DashSettings, HlsSettings, VirtualPlayerConfig, VirtualPlayerConfigInput } from './config/VirtualPlayerConfig.js';
export {
  createPlayout,
  type BufferedSegment,
  type Playout,
  type PlayoutEvent,
  type PlayoutOptions,
  type PlayoutPhase,
  type PlayoutStall,
} from './playout/createPlayout.js';
export { hlsLiveSyncPosition } from './hls/hlsLiveSyncPosition.js';
export { hlsNextReload, hlsReloadInterval } from './hls/hlsReloadInterval.js';
export { dashLiveDelay } from './dash/dashLiveDelay.js';
export type { VirtualPlayerEvent, VirtualPlayerEventMap, VirtualPlayerListener } from './events/VirtualPlayerEvents.js';
export {
  summarize,
  type ErrorEntry,
  type LatencySample,
  type SegmentTiming,
  type Summary,
  type VirtualReport,
  type VirtualSegmentTiming,
} from './report/VirtualReport.js';
export { toRunResult, type VirtualRunResult, type VirtualRunScenario } from './report/toRunResult.js';
export { VirtualPlayerError, VirtualPlayerErrorCodes, isVirtualPlayerError, type VirtualPlayerErrorCode } from './VirtualPlayerError.js';
export { playReceivers, type ReceiverPlan, type ReceiverOutcome } from './playReceivers.js';
