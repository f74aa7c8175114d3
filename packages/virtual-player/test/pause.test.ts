/**
 * Pausing the origin's delivery for longer than the buffer (POST /admin/{stream}/pause, then
 * /resume) is ONE stall of (pause − media buffered ahead when it began) ± 0.5 s — what
 * e2e/tests/probe-players.spec.ts checks for the real players.
 */
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVirtualPlayer, type VirtualPlayer } from '../src/index.js';
import { waitFor, withTimeout } from './helpers/waitFor.js';

const STREAM = '2M-2s';
let origin: LiveOrigin;
const players: VirtualPlayer[] = [];
const timers: NodeJS.Timeout[] = [];

beforeAll(async () => {
  origin = await startOrigin({ port: 0, streams: [STREAM] });
});
afterAll(async () => {
  for (const t of timers) clearTimeout(t);
  await Promise.all(players.map((p) => p.close()));
  await origin?.close();
});

const admin = async (what: 'pause' | 'resume') => {
  const res = await fetch(`${origin.url}/admin/${STREAM}/${what}`, { method: 'POST' });
  expect(res.status).toBe(200);
};

describe.each([
  ['hls', 'index.m3u8'],
  ['dash', 'manifest.mpd'],
] as const)('%s', (player, file) => {
  it('an origin pause longer than the buffer is one stall of (pause − buffered ahead) ± 0.5 s', async () => {
    const p = await startVirtualPlayer({ url: `${origin.url}/live/${STREAM}/${file}`, player });
    players.push(p);
    // Steady state: playing, and a segment has arrived since startup (the start burst is over).
    const startedWith = await waitFor(
      'startup',
      () => p.phase === 'playing' && p.report().segments.list.filter((s) => s.kind === 'media').length,
      20_000,
    );
    await waitFor(
      'a segment after the start burst',
      () => p.report().segments.list.filter((s) => s.kind === 'media').length > startedWith,
      20_000,
    );
    const pauseMs = Math.round(p.bufferAhead() * 1000) + 2500;
    const stalled = new Promise<number>((resolve) => p.on('stallEnd', (s) => resolve(s.durationMs)));
    await admin('pause');
    const aheadAtPause = p.bufferAhead();
    timers.push(setTimeout(() => void admin('resume'), pauseMs));
    const durationMs = await withTimeout(stalled, pauseMs + 10_000, 'the stall to end');
    // Play on for 4 s of media: a second stall would show here.
    const resumedAt = p.report().latencySeries.length;
    await waitFor('4 more latency samples', () => p.report().latencySeries.length >= resumedAt + 4, 15_000);
    const r = p.report();
    const expected = pauseMs - aheadAtPause * 1000;
    expect(r.stalls.count).toBe(1);
    expect(Math.abs(durationMs - expected)).toBeLessThanOrEqual(500);
    expect(r.stalls.totalMs).toBe(durationMs);
  }, 60_000);
});
