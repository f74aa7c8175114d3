export { SwEdge, playlistKey, withoutCmcd, type SwEdgeConfig, type SwEdgeState, type SwRoute, type FetchRecord } from './SwEdge.js';
export { SegmentStore, type StoredSegment } from './SegmentStore.js';
