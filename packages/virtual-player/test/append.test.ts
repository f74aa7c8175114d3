/**
 * The append gap (VirtualPlayerConfig.appendMs): after a segment's last byte the next segment
 * request waits, as hls.js/dash.js in Chromium wait for the Media Source append. Right after the
 * start both players are far below their buffer target and load segments back to back, so the
 * gaps between those requests are the append delay alone.
 */
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualPlayer, type VirtualPlayer } from '../src/index.js';
import { waitFor } from './helpers/waitFor.js';

let origin: LiveOrigin;
const players: VirtualPlayer[] = [];
beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: ['2M-2s'] });
});
afterAll(async () => {
  await Promise.all(players.map((p) => p.close()));
  await origin?.close();
});

/** Gaps (ms) between one media segment's last byte and the next request of the same track. */
function gaps(p: VirtualPlayer, track: string): number[] {
  const media = p.report().segments.list.filter((s) => s.kind === 'media' && s.track === track);
  return media.slice(1).map((s, i) => s.requestStart - media[i]!.lastByte);
}

describe.each([
  ['hls', 'index.m3u8', 'main'],
  ['dash', 'manifest.mpd', 'video'],
] as const)('%s', (player, file, track) => {
  it.each([0, 150])(
    'with appendMs %i the catch-up requests follow the previous last byte by that much',
    async (appendMs) => {
      const p = await startVirtualPlayer({ url: `${origin.url}/live/2M-2s/${file}`, player, appendMs });
      players.push(p);
      // The start is 3 segments behind the edge: at least two back-to-back loads follow the first.
      const g = await waitFor(
        'three catch-up segments',
        () => (gaps(p, track).length >= 2 ? gaps(p, track).slice(0, 2) : undefined),
        15_000,
      );
      expect(p.report().appendMs).toBe(appendMs);
      for (const x of g) {
        // Timestamps are whole ms on the player's clock; a timer fires no earlier than asked.
        expect(x).toBeGreaterThanOrEqual(appendMs - 1);
        expect(x).toBeLessThan(appendMs + 250);
      }
    },
    30_000,
  );
});
