// Public API of @ethle/edge-node.
export { startEdge, type EdgeStats, type RunningEdge, type StartEdgeOptions } from './startEdge.js';
export { createEdgeConfig } from './config/createEdgeConfig.js';
export type { EdgeConfig, EdgeConfigInput, OriginConfig, RanFailAction, RniConfig } from './config/EdgeConfig.js';
export { EdgeError, isEdgeError } from './errors/EdgeError.js';
export type { EdgeErrorCode } from './errors/EdgeErrorCode.js';
export { EdgeEvents, type EdgeEventMap, type PolicyGroup } from './events/EdgeEvents.js';
export { EdgeMetrics } from './metrics/EdgeMetrics.js';
export type { OriginFetchReport, FetchKind, FetchOutcome } from './origin/OriginFetchReport.js';
export { startMockRniServer, type MockRniServer, type MockMeasurement } from './rni/MockRniServer.js';
export { ranThroughputFromSignal, rsrpIndexToDbm, rsrqIndexToDb, RAN_MODEL } from './radio/ranThroughputFromSignal.js';
export { RNI_CALLBACK_PATH } from './radio/RniSubscription.js';
export { startSteeringService, type RunningSteeringService } from './steer/startSteeringService.js';
export { createSteeringServiceConfig, type SteeringServiceConfig, type SteeringServiceInput } from './steer/SteeringServiceConfig.js';
export { SteeringService, type EdgeStatus } from './steer/SteeringService.js';
export { startEdgeWorkers, type RunningEdgeWorkers } from './cluster/startEdgeWorkers.js';
export type { EdgeLoadReport } from './fleet/EdgeLoadReport.js';
