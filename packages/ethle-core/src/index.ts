// Public API of @ethle/core. Each concept folder has its own index; this file only re-exports.
export * from './errors/EthleError.js';
export type * from './errors/EthleErrorCode.js';
export * from './url/index.js';
export * from './hls/index.js';
export * from './model/index.js';
export * from './planner/index.js';
export * from './time/index.js';
export * from './policy/index.js';
export * from './dash/index.js';
export * from './session/index.js';
export * from './stream/index.js';
export * from './http/ETHLE_HEADERS.js';
export type * from './http/TimelineSnapshot.js';
export * from './steering/index.js';
export * from './handover/index.js';
