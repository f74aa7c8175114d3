export { SwEdge, type SwEdgeConfig, type SwEdgeState, type SwRoute, type FetchRecord } from './SwEdge.js';
export { SegmentStore, type StoredSegment, type SegmentStoreOptions } from './SegmentStore.js';
export { storablePlugin, segmentSizePlugin } from './segmentPlugins.js';
