import { defineConfig } from 'vitest/config';
import { TIMING_TESTS } from './scripts/test/timingTests.mjs';

const TESTS = ['packages/*/test/**/*.test.ts', 'e2e/experiments/**/*.test.ts', 'e2e/conformance/**/*.test.ts', 'scripts/test/**/*.test.ts'];
const EDGE_NODE_TESTS = 'packages/edge-node/test/**/*.test.ts';

// Unit and integration tests run against the TypeScript sources of every workspace package:
// the custom "source" export condition points each package's entry at src/ instead of dist/.
// No explicit 'import' condition for SSR: Vite adds import or require by the importer, and forcing
// 'import' made CommonJS packages' require() of a dual package (pg → pg-pool) get its ESM module.
export default defineConfig({
  resolve: { conditions: ['source', 'module', 'import', 'default'] },
  ssr: { resolve: { conditions: ['source', 'module', 'default'] } },
  test: {
    // Real-TCP timing tests run on their own (scripts/test.mjs, `npm test -- netlab`): sharing the
    // two cores with other test files starves the user-space relay and inflates measured delays.
    // The packaging test (scripts/test.mjs, `npm test -- packages`) packs and installs: on its own
    // too, as its prepack builds rewrite files other tests may be reading.
    exclude: [
      ...(process.env.ETHLE_NETLAB_TESTS
        ? []
        : [
            'packages/netlab/test/testbed.test.ts',
            'packages/netlab/test/cell.test.ts',
            'packages/netlab/test/handover.test.ts',
            'packages/netlab/test/linkAccounting.test.ts',
          ]),
      ...(process.env.ETHLE_PACK_TESTS ? [] : ['scripts/test/packInstall.test.ts']),
      // The short soak judges the edge's pace and fds: alone too (scripts/test.mjs, `npm test -- soak`).
      ...(process.env.ETHLE_SOAK_TESTS ? [] : ['packages/edge-node/test/soak.test.ts']),
      // Timing tests (scripts/test/timingTests.mjs): their own stage, `npm test -- timing`.
      ...(process.env.ETHLE_TIMING_TESTS ? [] : TIMING_TESTS),
      '**/node_modules/**',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker per core minus one: a single worker on a 2-core box. Most of
    // these files wait on real sockets and live-stream timers, not on the CPU, so three at a time
    // finish the stage in about 40 % of the time (348 s to 144 s); CPU-bound timing tests run in their own stages.
    maxWorkers: Number(process.env.ETHLE_VITEST_WORKERS ?? 3),
    // edge-node's files share their worker's modules (isolate: false): each of them imports the
    // whole edge from its TypeScript sources, and evaluating that graph anew in a fresh process per
    // file was half the CPU of the package's run (import 112 s of ~400 s worker time). Its files
    // close what they start (no handle outlives a file), so one leaves nothing running for the next.
    projects: [
      { extends: true, test: { name: 'edge-node', include: [EDGE_NODE_TESTS], isolate: false } },
      { extends: true, test: { name: 'isolated', include: TESTS, exclude: [EDGE_NODE_TESTS] } },
    ],
  },
});
