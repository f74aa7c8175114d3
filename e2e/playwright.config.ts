import { defineConfig } from '@playwright/test';

// Real Debian Chromium: `npx playwright install` cannot run on this machine (no network beyond
// the package registries), so every project launches /usr/bin/chromium explicitly.
export const CHROMIUM = process.env.ETHLE_CHROMIUM ?? '/usr/bin/chromium';

// Specs that run alone. Those that emulate a network with real kernel TCP (packages/netlab): their
// user-space relays must not share the two cores with another test's Chromium, or they measure the
// CPU, not the link. And the probe's clock under load, which loads both cores on purpose. (The
// outage demo, whose outage is set from the players' buffers with about a second to spare each
// side, failed once in four fresh-clone runs beside another spec: it runs with the browser specs,
// where a failure is retried once and named as flaky.) And the origin's low-latency renditions:
// dash.js's catch-up to the MPD's target needs the chunks to keep up with a faster playback rate,
// which three specs beside it on a busy box did not let it (it failed twice; alone it passed).
export const ALONE_SPECS = /(smoke-experiment|demo-backhaul|probe-clock-load|origin-ll|experiment-interrupt)\.spec\.ts$/;

export default defineConfig({
  testDir: './tests',
  timeout: 180_000,
  // Three browser specs at a time: they wait on live media (a segment every 2 s), not on the CPU
  // (every process of a run of the heaviest five files, sampled: a third of a core in all, three at
  // a time). `npm test` runs the `alone` project after the `browser` one (scripts/test.mjs); by
  // hand, pass `--project=browser` or `--project=alone`, as a bare run mixes the two.
  // ETHLE_PW_WORKERS=N runs N at a time instead (`npm test` passes it through).
  workers: Number(process.env.ETHLE_PW_WORKERS ?? 3),
  // One retry: a spec that fails and then passes is reported as flaky, by name and with its first
  // error, in `npm test`'s closing lines (scripts/test.mjs), not hidden; one that fails twice fails.
  // Many of these specs judge real-time behaviour (stall lengths, latency within ±0.5 s) on two
  // shared cores, where a VM pause of ~50 ms now and then can tip a bar.
  retries: 1,
  reporter: [['list'], ['json', { outputFile: process.env.ETHLE_PW_JSON ?? '../test-results/playwright.json' }]],
  projects: [
    { name: 'browser', testIgnore: ALONE_SPECS },
    { name: 'alone', testMatch: ALONE_SPECS, workers: 1 },
  ],
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
