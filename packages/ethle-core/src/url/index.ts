export { splitUrl, joinUrl, type UrlParts } from './splitUrl.js';
export { resolveUrl, resolveUrlParts } from './resolveUrl.js';
export { removeDotSegments } from './removeDotSegments.js';
export { setQueryParam } from './setQueryParam.js';
export type { UriRouter } from './UriRouter.js';
export { createEdgeRouter, type EdgeRouterOptions } from './createEdgeRouter.js';
export { originKey } from './originKey.js';
export { CROSS_ORIGIN_PATH, crossOriginPath, crossOriginTarget } from './crossOriginPath.js';
export { keepQueryParams } from './keepQueryParams.js';
