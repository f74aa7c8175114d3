import type { Browser, BrowserType } from '@playwright/test';
import type { Testbed } from '@ethle/netlab';
import type { RunResult } from '@ethle/player-demo';
import { openPlayer } from '../fixtures/playerPage.js';

/**
 * Plays `src` for `durationS` in real Chromium (hls.js or dash.js with the QoE probe) in the
 * testbed's client namespace and returns the probe's report, and when it was read on the page's
 * clock (the probe's: epoch ms, the clock of its switch and stall times).
 */
export async function playChromium(
  tb: Testbed,
  chromium: BrowserType,
  o: { base: string; src: string; player: 'hls' | 'dash'; config: Record<string, unknown>; durationS: number },
): Promise<{ report: RunResult['report']; readAtMs: number }> {
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: tb.chromiumWrapper(),
      // The page is served by Playwright's route and the hosts have private (10.x) addresses:
      // Chromium's private/local network access checks would block the player's requests.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--autoplay-policy=no-user-gesture-required',
        '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults',
      ],
    });
    const page = await browser.newPage();
    const pageLog: string[] = [];
    page.on('console', (m) => pageLog.push(`${m.type()}: ${m.text()}`.slice(0, 300)));
    page.on('pageerror', (e) => pageLog.push(`pageerror: ${e.message}`.slice(0, 300)));
    await openPlayer(page, { base: o.base, src: o.src, player: o.player, probe: true, config: o.config });
    // The measured period itself (paper: 5 minutes from the first request).
    await page.waitForTimeout(o.durationS * 1000);
    const { report, readAtMs } = await page.evaluate(() => ({
      report: (window as any).probe.report(),
      readAtMs: performance.timeOrigin + performance.now(),
    }));
    if (process.env.EXP_DEBUG) console.log(pageLog.slice(-30).join('\n'), await page.evaluate(() => (window as any).video?.currentTime));
    return { report, readAtMs };
  } finally {
    await browser?.close().catch(() => undefined);
  }
}
