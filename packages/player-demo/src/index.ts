// Pure data shaping of the dashboard, for experiments and the report renderer.
export * from './data/RunResult.js';
export * from './data/summarize.js';
export * from './data/schemeColor.js';
