import { defineConfig } from '@playwright/test';
import base from '../playwright.config.js';

// `npm run conformance`: the full player conformance matrix (matrix.spec.ts), 30 s per cell;
// writes docs/conformance.md. The short subset runs in `npm test` (e2e/tests/conformance.spec.ts).
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: 'matrix.spec.ts',
  timeout: 240_000,
  reporter: [['list']],
});
