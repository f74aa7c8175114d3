export { startOrigin, DEFAULT_KEEP_ALIVE_SECONDS, type LiveOrigin, type OriginOptions } from './server/startOrigin.js';
export { OriginOptionError } from './server/OriginOptionError.js';
export { CUE_EVERY_SECONDS, CUE_BREAK_SECONDS, segmentCue, type SegmentCue, type CueBreak } from './streams/CueSchedule.js';
export type { OriginStatsJson } from './server/OriginStats.js';
export { parseStreamName, DEFAULT_STREAMS, TABLE_I_BYTES, type StreamSpec } from './streams/StreamSpec.js';
export { LiveClock } from './streams/LiveClock.js';
export { LoopMedia, LOOP_SECONDS, CHUNK_SECONDS, LOOP_CHUNKS } from './media/LoopMedia.js';
export { firstPts, parseTsChunk } from './ts/TsChunk.js';
export { readBoxes } from './mp4/readBoxes.js';
