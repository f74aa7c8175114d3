import { defineConfig } from '@playwright/test';

// `npm run experiment -- …`: one Playwright test per scenario, so runs are independent and can be
// sharded across machines with --shard=i/n. Each writes results/<id>.json; the global teardown
// writes the summary (JSON, CSV) and the HTML report of what is in the results directory.
export default defineConfig({
  testDir: '.',
  testMatch: 'matrix.spec.ts',
  timeout: 30 * 60_000,
  // One testbed at a time by default: runs share this machine's two cores. `--parallel K` (virtual
  // receivers only) runs K; each run records the box's CPU pressure, so the cost is visible.
  workers: Number(process.env.EXP_WORKERS || 1),
  fullyParallel: true,
  retries: 0,
  reporter: [['list']],
  globalTeardown: './globalTeardown.ts',
});
