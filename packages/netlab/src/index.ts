export {
  createTestbed,
  cleanupTestbeds,
  testbedNamespaces,
  NS_PREFIX,
  type Testbed,
  type TestbedOptions,
  type TestbedAccount,
  type Host,
  type HostName,
  type CongestionControl,
} from './testbed/createTestbed.js';
export { symmetric, type LinkSpec, type DirectionSpec, type RadioCellSpec } from './relay/LinkSpec.js';
export { DirectionShaper, parseMahimahiTrace, type ShaperStats } from './relay/DirectionShaper.js';
export { rotateTrace } from './relay/rotateTrace.js';
export { LTE_A, LTE_A_WALK, LTE_A_CELL, lteA, lteAWalk, othersForLoad, backhaul, PAPER_RTT_MS } from './profiles.js';
export { CellScheduler, type CellDrop } from './relay/CellScheduler.js';
export { CellLoad } from './relay/CellLoad.js';
export { seededRandom, seedFrom, hashUnit } from './relay/seededRandom.js';
export { startRelay, type Relay, type LinkStats, type DirectionStats } from './relay/startRelay.js';
export { LatenessHistogram, type LatenessSummary } from './relay/LatenessHistogram.js';
export type { RelayConfig } from './relay/relayMain.js';
export { freePorts } from './testbed/freePorts.js';
export { DEFAULT_SENDER_PRIORITY, makeRealtime, PATH_PRIORITY, setThreadPriority, type RealtimeOptions } from './testbed/makeRealtime.js';
export { parseSchedstat, threadTimes, type ThreadTimes } from './relay/threadTimes.js';
export { NetlabError, type NetlabErrorCode } from './errors/NetlabError.js';
export { relayTimingProblems, lateRelays, LATE_P99_LIMIT_MS } from './relay/relayTimingProblems.js';
export {
  FreezeSchedule,
  latenessInjectionProblem,
  DEFAULT_STALL_MS,
  type LatenessInjection,
  type FreezeStats,
} from './relay/FreezeSchedule.js';
export {
  accountLink,
  modelledTotal,
  unmodelledTotal,
  type LinkAccount,
  type LinkCounters,
  type DirectionAccount,
  type ModelledDrops,
  type UnmodelledDrops,
  type TunCounters,
} from './accounting/accountLink.js';
export { dropProblems, LINK_SIDES, type DropProblem } from './accounting/dropProblems.js';
export { parseProcNetUdp, type UdpSocketRow } from './accounting/parseProcNetUdp.js';
export { parseNstat, tcpCounters, TCP_COUNTERS, type TcpCounters } from './accounting/parseNstat.js';
export { judgeRun, type Verdict, type ValidityBar } from './validity/judgeRun.js';
export { linkBuffers, type LinkBuffers } from './testbed/linkBuffers.js';
export { startCpuHogs } from './validate/startCpuHogs.js';
export { accountSummary } from './validate/accountSummary.js';
export { cpuStealMeter, cpuTicks } from './validate/cpuSteal.js';
export { cpuPressureMeter, cpuPressureTotalUs } from './validate/cpuPressure.js';
export { CellShaper, userOf } from './relay/CellShaper.js';
export { userSeed, MAX_CELL_USERS, type CellSpec } from './relay/CellSpec.js';
