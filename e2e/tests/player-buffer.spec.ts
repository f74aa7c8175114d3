import { expect, test } from '@playwright/test';
import { parseStreamName, startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { openPlayer, waitForPlayback } from '../fixtures/playerPage.js';
import { CHROMIUM_VIDEO_QUOTA_BYTES, forwardBufferSeconds, playerBufferConfig } from '../experiments/playerBuffer.js';

// The experiments cap the player's forward buffer so the paper's largest segments (50M-10s,
// 61.1 MB, padded inside the video samples as a CBR encoder does) fit Chromium's Media Source
// quota. Checked against the real thing: Debian Chromium, hls.js, the live origin on loopback (no
// emulated links, so any refused append is the quota's).
const STREAM = '50M-10s';
const spec = parseStreamName(STREAM)!;
let origin: LiveOrigin;
test.beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: [STREAM] });
});
test.afterAll(() => origin?.close());

const bufferFullErrors = () =>
  ((window as any).probe.report().errors as { detail: string }[]).filter((e) => e.detail === 'bufferFullError').length;

test('the forward-buffer rule keeps defaults for Table I streams that fit and caps the 61 MB one', () => {
  for (const name of ['15M-2s', '15M-4s', '15M-10s']) {
    const s = parseStreamName(name)!;
    expect(playerBufferConfig('hls', s.segmentBytes, s.segmentSeconds), name).toEqual({});
  }
  // 50M-2s and 50M-4s: 22 s and 20 s, still more than the ≤ 3 segments hls.js keeps behind the
  // live edge, so those cells buffer as with the default; 50M-10s: one segment ahead.
  expect(forwardBufferSeconds(parseStreamName('50M-2s')!.segmentBytes, 2)).toBe(22);
  expect(forwardBufferSeconds(parseStreamName('50M-4s')!.segmentBytes, 4)).toBe(20);
  const s = forwardBufferSeconds(spec.segmentBytes, spec.segmentSeconds);
  expect(s).toBe(10);
  // The playing segment, the ones ahead and the one being appended fit the quota.
  expect((s / spec.segmentSeconds + 1) * spec.segmentBytes).toBeLessThanOrEqual(CHROMIUM_VIDEO_QUOTA_BYTES);
});

test("hls.js with its default 30 s buffer hits Chromium's quota on 61 MB segments", async ({ page }) => {
  test.setTimeout(90_000);
  const src = `${origin.url}/live/${STREAM}/index.m3u8`;
  await openPlayer(page, { base: origin.url, src, player: 'hls', probe: true });
  // Three segments behind the live edge are available at once: 183 MB asked for, 157 MB allowed.
  await page.waitForFunction(bufferFullErrors, undefined, { timeout: 60_000 });
});

test('with the capped buffer hls.js plays two segment boundaries without a refused append', async ({ page }) => {
  test.setTimeout(120_000);
  const src = `${origin.url}/live/${STREAM}/index.m3u8`;
  const config = playerBufferConfig('hls', spec.segmentBytes, spec.segmentSeconds);
  await openPlayer(page, { base: origin.url, src, player: 'hls', probe: true, config });
  await waitForPlayback(page, 2 * spec.segmentSeconds + 2, 60_000);
  expect(await page.evaluate(bufferFullErrors)).toBe(0);
  expect(await page.evaluate(() => (window as any).player.config.maxBufferLength)).toBe(config.maxBufferLength);
});
