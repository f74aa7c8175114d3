/**
 * Virtual receivers against the real live origin on loopback (port 0, real sockets): playback
 * starts, nothing stalls, and the true latency is the start offset each player chose — hls.js
 * liveSyncDurationCount (3) × target duration, dash.js the MPD's suggestedPresentationDelay (the
 * origin writes 3 × segment duration).
 */
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualPlayer, type VirtualPlayer } from '../src/index.js';
import { nextSegmentListed, waitFor } from './helpers/waitFor.js';

const STREAM = '2M-2s';
const L = 2;
let origin: LiveOrigin;
const players: VirtualPlayer[] = [];

beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: [STREAM] });
});
afterAll(async () => {
  await Promise.all(players.map((p) => p.close()));
  await origin?.close();
});

describe.each([
  ['hls', 'index.m3u8', 3 * L],
  ['dash', 'manifest.mpd', 3 * L],
] as const)('%s direct from the origin', (player, file, offset) => {
  it(`starts, does not stall, and its true latency is the start offset (${offset} s) ± 0.5 s`, async () => {
    const url = `${origin.url}/live/${STREAM}/${file}`;
    // hls.js counts its offset from the playlist edge it saw: start as a segment is listed.
    if (player === 'hls') await nextSegmentListed(url);
    const p = await startVirtualPlayer({ url, player });
    players.push(p);
    await waitFor('5 latency samples', () => p.report().latency.samples >= 5, 20_000);
    const r = p.report();
    expect(r.startupMs).toBeGreaterThan(0);
    expect(r.start?.offsetSeconds).toBeCloseTo(offset, 0);
    expect(r.stalls.count).toBe(0);
    expect(r.errors).toEqual([]);
    // dash.js synchronises its clock through the MPD's UTCTiming (the origin's /time) before it starts.
    if (player === 'dash') expect(r.clock).toMatchObject({ samples: 1 });
    else expect(r.clock).toBeNull();
    expect(Math.abs(r.latency.mean! - offset)).toBeLessThanOrEqual(0.5);
    // Per-segment timing like the probe's: media segments with bytes and ordered timestamps.
    const media = r.segments.list.filter((s) => s.kind === 'media');
    expect(media.length).toBeGreaterThanOrEqual(3);
    for (const s of media) {
      expect(s.bytes).toBeGreaterThan(0);
      expect(s.requestStart).toBeLessThanOrEqual(s.firstByte);
      expect(s.firstByte).toBeLessThanOrEqual(s.lastByte);
      expect(s.duration).toBe(L);
    }
    expect(new Set(media.map((s) => s.track))).toEqual(new Set(player === 'hls' ? ['main'] : ['video', 'audio']));
  }, 40_000);
});
