// Timing tests of the receivers and the relay (± 0.5 s playout, real-time scheduling): the `timing`
// stage of scripts/test.mjs runs them one file at a time; the unit stage (three files at a time on
// two cores) leaves them out (vitest.config.ts).
export const TIMING_TESTS = [
  'packages/virtual-player/test/direct.test.ts',
  'packages/virtual-player/test/edge.test.ts',
  'packages/virtual-player/test/pause.test.ts',
  'packages/virtual-player/test/receivers.test.ts',
  'packages/virtual-player/test/runResult.test.ts',
  'packages/netlab/test/relay.test.ts',
  'packages/netlab/test/makeRealtime.test.ts',
];
