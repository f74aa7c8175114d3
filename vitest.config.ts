import { defineConfig } from 'vitest/config';
import { TIMING_TESTS } from './scripts/test/timingTests.mjs';

// Unit and integration tests run against the TypeScript sources of every workspace package:
// the custom "source" export condition points each package's entry at src/ instead of dist/.
// No explicit 'import' condition for SSR: Vite adds import or require by the importer, and forcing
// 'import' made CommonJS packages' require() of a dual package (pg → pg-pool) get its ESM module.
const resolve = { conditions: ['source', 'module', 'import', 'default'] };
const ssr = { resolve: { conditions: ['source', 'module', 'default'] } };

// Files that replace a module with vi.mock: they need a module registry of their own, so they run
// isolated; every other file shares its worker's modules with the files before it (below).
const ISOLATED = ['packages/ethle-core/test/session/parseOnce.test.ts'];
const include = [
  'packages/*/test/**/*.test.ts',
  'e2e/experiments/**/*.test.ts',
  'e2e/conformance/**/*.test.ts',
  'scripts/test/**/*.test.ts',
];
// Real-TCP timing tests run on their own (scripts/test.mjs, `npm test -- netlab`): sharing the
// two cores with other test files starves the user-space relay and inflates measured delays.
// The packaging test (scripts/test.mjs, `npm test -- packages`) packs and installs: on its own
// too, as its prepack builds rewrite files other tests may be reading.
const exclude = [
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
];
const common = { include, exclude, testTimeout: 30_000, hookTimeout: 30_000, pool: 'forks' as const };

export default defineConfig({
  resolve,
  ssr,
  test: {
    // Vitest's default is one worker per core minus one: a single worker on a 2-core box. Most of
    // these files wait on real sockets and live-stream timers, not on the CPU, so three at a time
    // finish the stage in about 40 % of the time (348 s to 144 s); CPU-bound timing tests run in their own stages.
    // Four by default: a fourth file overlaps more waiting at little CPU (docs/benchmarks.md, edge-node
    // tests). CI's unit stage keeps three (scripts/test.mjs): it runs beside the netlab stage.
    maxWorkers: Number(process.env.ETHLE_VITEST_WORKERS ?? 4),
    projects: [
      // Without isolation a worker evaluates the workspace's modules (undici, pino, DuckDB, the
      // edge) once, not once per file: the unit stage went from 165 s to 75-79 s, of which importing
      // was 108 s and 18-19 s (summed over workers). The price: a file must not leave state behind
      // in a module (a shared fixture, fake timers not restored, a handle still open) — each file
      // closes and owns what it makes, so one leaves nothing running for the next.
      { resolve, ssr, test: { ...common, name: 'shared', isolate: false, exclude: [...exclude, ...ISOLATED] } },
      { resolve, ssr, test: { ...common, name: 'isolated', include: ISOLATED } },
    ],
  },
});
