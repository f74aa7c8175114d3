// Content steering for an edge fleet (HLS Content Steering / DASH-IF Content Steering).
export * from './createSteeringManifest.js';
export * from './addHlsSteering.js';
export * from './addDashSteering.js';
export * from './nextPathwayHealth.js';
export * from './pickSteeringServer.js';
export * from './steeringPriority.js';
