import { defineConfig } from '@playwright/test';
import base from '../playwright.config.js';

// `npm run conformance`: the full player conformance matrix (matrix.spec.ts), 30 s per cell;
// writes docs/conformance.md (a part of it, e.g. `-g 'Shaka · hls-fmp4'`: test-results/conformance.md).
// The short subset runs in `npm test` (e2e/tests/conformance.spec.ts).
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: 'matrix.spec.ts',
  timeout: 300_000,
  workers: 1,
  projects: undefined,
  reporter: [['list']],
});
