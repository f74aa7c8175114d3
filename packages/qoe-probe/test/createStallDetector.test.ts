import { describe, expect, it } from 'vitest';
import { createStallDetector, type PlaybackSample, type StallOutput } from '../src/index.js';

/** Drives a detector with a scripted playhead sampled every `step` ms. */
function run(script: (t: number) => Partial<PlaybackSample> & { currentTime: number }, until: number, step = 100, threshold = 1000) {
  const d = createStallDetector({ thresholdMs: threshold, loadStart: 0 });
  const out: StallOutput[] = [];
  for (let t = 0; t <= until; t += step) out.push(...d.sample({ t, paused: false, seeking: false, readyState: 4, ...script(t) }));
  return { d, out, stalls: out.flatMap((o) => (o.type === 'stallEnd' ? [o.stall] : [])) };
}

describe('createStallDetector', () => {
  it('times startup from the load request to the first advance, not as a stall', () => {
    // Loading for 3.3 s (playhead parked at 10), then plays at rate 1.
    const { out, stalls } = run((t) => ({ currentTime: t < 3300 ? 10 : 10 + (t - 3300) / 1000, readyState: t < 3300 ? 1 : 4 }), 6000);
    const first = out.find((o) => o.type === 'firstFrame');
    expect(first?.type === 'firstFrame' && first.startupMs).toBeCloseTo(3300, 6);
    expect(stalls).toEqual([]);
  });

  it('reports one stall lasting from the last progress to the resumption, whatever the threshold', () => {
    // Plays 0..5 s, freezes 5.05 s..8.25 s (3.2 s), plays on.
    const ct = (t: number) => (t < 5050 ? t : t < 8250 ? 5050 : t - 3200) / 1000;
    for (const threshold of [500, 1000, 2000]) {
      const { stalls } = run((t) => ({ currentTime: ct(t) }), 12000, 100, threshold);
      expect(stalls).toHaveLength(1);
      expect(stalls[0]!.start).toBeCloseTo(5050, 0);
      expect(stalls[0]!.end).toBeCloseTo(8250, 0);
      expect(stalls[0]!.durationMs).toBeCloseTo(3200, 0);
    }
  });

  it('does not count a freeze shorter than the threshold', () => {
    const ct = (t: number) => (t < 3000 ? t : t < 3800 ? 3000 : t - 800) / 1000;
    expect(run((t) => ({ currentTime: ct(t) }), 8000).stalls).toEqual([]);
  });

  it('excludes pauses', () => {
    // Paused from 2 s to 7 s: the playhead stands still, but nobody is waiting.
    const ct = (t: number) => (t < 2000 ? t : t < 7000 ? 2000 : t - 5000) / 1000;
    const { stalls } = run((t) => ({ currentTime: ct(t), paused: t >= 2000 && t < 7000 }), 10000);
    expect(stalls).toEqual([]);
  });

  it('excludes seeks and the loading that follows them', () => {
    // At 3 s the user seeks from 3 to 30; the seek takes 2.5 s to load, then play resumes.
    const ct = (t: number) => (t < 3000 ? t / 1000 : t < 5500 ? 30 : 30 + (t - 5500) / 1000);
    const { stalls } = run(
      (t) => ({ currentTime: ct(t), seeking: t >= 3000 && t < 4000, readyState: t >= 3000 && t < 5500 ? 1 : 4 }),
      9000,
    );
    expect(stalls).toEqual([]);
  });

  it('counts a stall after a seek once playback had resumed', () => {
    // Seek at 2 s to 40 (0.5 s), plays 2.5..4 s, then freezes 1.5 s.
    const ct = (t: number) =>
      t < 2000 ? t / 1000 : t < 2500 ? 40 : t < 4000 ? 40 + (t - 2500) / 1000 : t < 5500 ? 41.5 : 41.5 + (t - 5500) / 1000;
    const { stalls } = run((t) => ({ currentTime: ct(t), seeking: t >= 2000 && t < 2500 }), 8000);
    expect(stalls).toHaveLength(1);
    expect(stalls[0]!.durationMs).toBeCloseTo(1500, 0);
  });

  it('ends a stall at a pause and marks it interrupted', () => {
    const ct = (t: number) => (t < 2000 ? t / 1000 : 2);
    const { stalls } = run((t) => ({ currentTime: ct(t), paused: t >= 4500 }), 6000);
    expect(stalls).toHaveLength(1);
    expect(stalls[0]).toMatchObject({ start: 2000, end: 4500, interruptedBy: 'pause' });
  });

  it('keeps a stall going through a small player nudge seek', () => {
    // Frozen at 2.0 from 2 s; at 3.5 s the player nudges to 2.1 (seek); play resumes at 4 s.
    const ct = (t: number) => (t < 2000 ? t / 1000 : t < 3500 ? 2 : t < 4000 ? 2.1 : 2.1 + (t - 4000) / 1000);
    const { stalls } = run((t) => ({ currentTime: ct(t), seeking: t === 3500 }), 6000);
    expect(stalls).toHaveLength(1);
    expect(stalls[0]!.durationMs).toBeCloseTo(2000, 0);
  });

  it('attaches player signals seen around the stall', () => {
    const d = createStallDetector({ thresholdMs: 1000, loadStart: 0 });
    const s = (t: number, currentTime: number, readyState = 4) => d.sample({ t, currentTime, paused: false, seeking: false, readyState });
    s(0, 0);
    s(100, 0.1);
    s(200, 0.2);
    d.hint('waiting', 250);
    s(1300, 0.2, 2); // stall detected
    d.hint('hls-buffer-stalled', 1400);
    const out = s(2000, 0.4);
    const end = out.find((o) => o.type === 'stallEnd');
    expect(end?.type === 'stallEnd' && end.stall.signals.sort()).toEqual(['hls-buffer-stalled', 'readyState', 'waiting']);
  });

  it('markLoadStart restarts startup only before the first frame', () => {
    const d = createStallDetector({ thresholdMs: 1000, loadStart: 0 });
    d.markLoadStart(500);
    d.sample({ t: 600, currentTime: 0, paused: false, seeking: false, readyState: 4 });
    const out = d.sample({ t: 800, currentTime: 0.1, paused: false, seeking: false, readyState: 4 });
    expect(out[0]).toMatchObject({ type: 'firstFrame', startupMs: 200 });
    d.markLoadStart(5000);
    expect(d.phase).toBe('playing');
  });
});
