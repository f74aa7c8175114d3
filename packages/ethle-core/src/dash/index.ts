export { parseMpd } from './parseMpd.js';
export { parseXsDuration } from './parseXsDuration.js';
export { availableSegments, initializationUrl, type DashSegment, type AvailableOptions } from './availableSegments.js';
export { expandTemplate, type TemplateValues } from './expandTemplate.js';
export { holdMpd, type DashHoldOptions, type DashHoldResult } from './holdMpd.js';
export { startRepresentation, START_ESTIMATE_BPS, type StartCandidate } from './startRepresentation.js';
export type { MpdInfo, MpdPeriod, MpdRepresentation, MpdTemplate, MpdTimelineEntry } from './MpdInfo.js';
