export type {
  HlsByteRange,
  HlsMediaPlaylist,
  HlsMediaSegment,
  HlsPart,
  HlsPreloadHint,
  HlsRenditionReport,
  HlsServerControl,
} from './HlsMediaPlaylist.js';
export type { HlsAttributes, HlsIFrameStream, HlsMultivariantPlaylist, HlsRendition, HlsVariantStream } from './HlsMultivariantPlaylist.js';
export type { HlsRouter, HlsUriKind } from './HlsUriKind.js';
export { parseMediaPlaylist, parseMultivariantPlaylist, parsePlaylist, isMultivariantPlaylist } from './parsePlaylist.js';
export { holdMediaPlaylist, type HlsHoldOptions, type HlsHoldResult, type HlsHeldSegment, type HlsHeldPart } from './holdMediaPlaylist.js';
export type { HlsPartPosition } from './HlsPartPosition.js';
export { partsPerSegment } from './partsPerSegment.js';
export { rewriteMultivariantPlaylist } from './rewriteMultivariantPlaylist.js';
export { createHlsHistory, recordHlsHistory, type HlsHistory, type HlsHistorySegment } from './HlsHistory.js';
export { MAX_HLS_SECONDS } from './parseHlsNumbers.js';
export { readHlsDirectives, type HlsDirectives, type HlsDirectivesVerdict } from './readHlsDirectives.js';
export { planBlockingReload, type BlockingReloadPlan, type HeldPlaylistPosition } from './planBlockingReload.js';
export { deltaMediaPlaylist, type HlsDeltaResult } from './deltaMediaPlaylist.js';
export { lowLatencyFallbackSeconds } from './lowLatencyFallbackSeconds.js';
