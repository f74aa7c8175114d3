import { defineConfig } from '@playwright/test';

// Real Debian Chromium: `npx playwright install` cannot run on this machine (no network beyond
// the package registries), so every project launches /usr/bin/chromium explicitly.
export const CHROMIUM = process.env.ETHLE_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './tests',
  timeout: 180_000,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '../test-results/playwright.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
  },
});
