export type { HlsByteRange, HlsMediaPlaylist, HlsMediaSegment, HlsPart, HlsPreloadHint, HlsRenditionReport, HlsServerControl } from './HlsMediaPlaylist.js';
export type { HlsAttributes, HlsIFrameStream, HlsMultivariantPlaylist, HlsRendition, HlsVariantStream } from './HlsMultivariantPlaylist.js';
export type { HlsRouter, HlsUriKind } from './HlsUriKind.js';
export { parseMediaPlaylist, parseMultivariantPlaylist, parsePlaylist, isMultivariantPlaylist } from './parsePlaylist.js';
export { holdMediaPlaylist, type HlsHoldOptions, type HlsHoldResult, type HlsHeldSegment } from './holdMediaPlaylist.js';
export { rewriteMultivariantPlaylist } from './rewriteMultivariantPlaylist.js';
export { createHlsHistory, recordHlsHistory, type HlsHistory, type HlsHistorySegment } from './HlsHistory.js';
export { MAX_HLS_SECONDS } from './parseHlsNumbers.js';
