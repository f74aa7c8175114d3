// Timing tests of the receivers, the relay, the edge's send deadline and its origin-start learner
// (± 0.5 s playout, real-time scheduling, a minimum receiver rate, a loopback fetch against slow
// start's time): the `timing` stage of scripts/test.mjs runs them one file at a time; the unit
// stage (three files at a time on two cores) leaves them out (vitest.config.ts).
export const TIMING_TESTS = [
  'packages/virtual-player/test/direct.test.ts',
  'packages/virtual-player/test/edge.test.ts',
  'packages/virtual-player/test/pause.test.ts',
  'packages/virtual-player/test/runResult.test.ts',
  'packages/netlab/test/relay.test.ts',
  'packages/netlab/test/makeRealtime.test.ts',
  // The send deadline cuts a receiver below minReceiverMbps (40): with three files beside it, the
  // "normal" receiver's reading Node process itself fell under that rate and was cut.
  'packages/edge-node/test/heldBytes.test.ts',
  // The learner's 'warm' verdict needs the head of each loopback fetch within 0.8 of slow start's
  // time at the told 20 ms RTT (~68 ms): with three files beside it, one late fetch says
  // 'slow-start', and one such verdict is enough for slow-start.
  'packages/edge-node/test/originStart.test.ts',
  // The testbed's links under CPU hogs on every core (real-time relays): the hogs' load alone.
  'packages/netlab/test/testbedUnderLoad.test.ts',
];
