export { SwEdge, type SwEdgeConfig, type SwEdgeState, type FetchRecord } from './SwEdge.js';
export { SegmentStore, type StoredSegment } from './SegmentStore.js';
