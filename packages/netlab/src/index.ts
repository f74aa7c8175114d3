export { createTestbed, cleanupTestbeds, NS_PREFIX, type Testbed, type TestbedOptions, type Host, type HostName, type CongestionControl } from './testbed/createTestbed.js';
export { symmetric, type LinkSpec, type DirectionSpec } from './relay/LinkSpec.js';
export { DirectionShaper, parseMahimahiTrace, type ShaperStats } from './relay/DirectionShaper.js';
export { LTE_A, lteA, backhaul, PAPER_RTT_MS } from './profiles.js';
export { seededRandom, seedFrom } from './relay/seededRandom.js';
export { startRelay, type Relay, type LinkStats } from './relay/startRelay.js';
export type { RelayConfig } from './relay/relayMain.js';
export { freePorts } from './testbed/freePorts.js';
