// The per-stream layer both edges mount: a stream's identity, its window and progress, when to
// poll it, what may be kept.
export * from './barePath.js';
export * from './RenditionLadder.js';
export * from './SegmentSizes.js';
export * from './StreamProgress.js';
export * from './nextPollAt.js';
export * from './streamIdentity.js';
export * from './isManifestPath.js';
export * from './isStorable.js';
export * from './forbidsStore.js';
export * from './STREAM_DEFAULTS.js';
