/**
 * The stall state machine: pure, fed with playback samples, no timers, no DOM.
 *
 * Model (the playback-heartbeat approach of analytics SDKs such as Mux Data):
 * - before the first frame the player is "loading": waiting there is startup delay, never a stall;
 * - after it, the playhead must advance while the media is neither paused, seeking nor ended;
 *   if it has not advanced for `thresholdMs`, a stall began at the last progress;
 * - the stall ends when the playhead advances again; its duration runs from the last progress to
 *   the resumption, so the detection threshold does not shorten it;
 * - after a seek (and after the end of the media) detection is re-armed only by fresh progress, so
 *   the loading a seek causes is not a stall; after a pause it is re-armed when play resumes.
 * Instants between two samples are interpolated from how far the playhead moved (rate 1).
 */

export interface PlaybackSample {
  /** Sample time, ms on a monotonic clock. */
  t: number;
  /** media.currentTime, s. */
  currentTime: number;
  paused: boolean;
  seeking: boolean;
  /** media.readyState (0..4). */
  readyState: number;
  ended?: boolean;
}

export interface Stall {
  /** Last progress before the stall, ms (same clock as the samples). */
  start: number;
  /** Resumption, ms. */
  end: number;
  durationMs: number;
  /** Player/media signals seen around the stall: 'waiting', 'hls-buffer-stalled', 'dash-buffer-empty', 'shaka-buffering', 'readyState'. */
  signals: string[];
  /** Set when the stall did not end by playback resuming but by a pause or a seek. */
  interruptedBy?: 'pause' | 'seek' | 'end';
}

export type StallOutput =
  | { type: 'firstFrame'; at: number; startupMs: number }
  | { type: 'stallStart'; start: number; detectedAt: number; currentTime: number }
  | { type: 'stallEnd'; stall: Stall };

export type StallPhase = 'loading' | 'playing' | 'stalled' | 'idle';

export interface StallDetectorOptions {
  /** Sustained no-progress time that makes a stall, ms. */
  thresholdMs: number;
  /** The load/play request, ms (same clock as the samples); startup is measured from it. */
  loadStart: number;
}

export interface StallDetector {
  sample(s: PlaybackSample): StallOutput[];
  /** A player/media signal that the buffer ran dry; annotates the stall it belongs to. */
  hint(signal: string, t: number): void;
  /** Restart the startup measurement (only before the first frame). */
  markLoadStart(t: number): void;
  readonly phase: StallPhase;
}

/** A playhead that moved further than this × wall time jumped (a seek), it did not play. */
const MAX_RATE = 2;
/** A seek within this distance of a stalled playhead is the player nudging over a hole, not the user. */
const NUDGE_S = 3;
/** Hints this long before a stall's start still belong to it, ms. */
const HINT_LEAD_MS = 1000;

export function createStallDetector(options: StallDetectorOptions): StallDetector {
  const { thresholdMs } = options;
  let loadStart = options.loadStart;
  let phase: StallPhase = 'loading';
  let prev: PlaybackSample | null = null;
  let lastProgress = 0;
  let stallStart = 0;
  let stallCt = 0;
  let signals = new Set<string>();
  let hints: { signal: string; t: number }[] = [];

  function endStall(end: number, interruptedBy?: Stall['interruptedBy']): StallOutput {
    const stall: Stall = { start: stallStart, end, durationMs: Math.max(0, end - stallStart), signals: [...signals] };
    if (interruptedBy) stall.interruptedBy = interruptedBy;
    signals = new Set();
    return { type: 'stallEnd', stall };
  }

  function sample(s: PlaybackSample): StallOutput[] {
    const out: StallOutput[] = [];
    const p = prev;
    prev = s;
    if (!p) return out;
    const dct = s.currentTime - p.currentTime;
    const dtMs = s.t - p.t;
    const progressed = !s.seeking && !p.seeking && dct > 0.001 && dct * 1000 <= dtMs * MAX_RATE + 250;
    const interrupted = s.paused || s.seeking || s.ended === true;
    // Where, between the two samples, the playhead started / stopped moving.
    const resumedAt = Math.max(p.t, s.t - dct * 1000);
    const stoppedAt = Math.min(s.t, p.t + dct * 1000);

    switch (phase) {
      case 'loading':
        if (progressed && !s.paused) {
          out.push({ type: 'firstFrame', at: resumedAt, startupMs: Math.max(0, resumedAt - loadStart) });
          phase = 'playing';
          lastProgress = stoppedAt;
        }
        break;
      case 'playing':
        if (interrupted) phase = 'idle';
        else if (progressed) lastProgress = stoppedAt;
        else if (s.t - lastProgress >= thresholdMs) {
          phase = 'stalled';
          stallStart = lastProgress;
          stallCt = p.currentTime;
          for (const h of hints) if (h.t >= stallStart - HINT_LEAD_MS) signals.add(h.signal);
          hints = [];
          if (s.readyState < 3) signals.add('readyState');
          out.push({ type: 'stallStart', start: stallStart, detectedAt: s.t, currentTime: s.currentTime });
        }
        break;
      case 'stalled':
        if (s.readyState < 3) signals.add('readyState');
        if (progressed && !interrupted) {
          out.push(endStall(resumedAt));
          phase = 'playing';
          lastProgress = stoppedAt;
        } else if (s.paused) {
          out.push(endStall(s.t, 'pause'));
          phase = 'idle';
        } else if (s.ended) {
          out.push(endStall(s.t, 'end'));
          phase = 'idle';
        } else if ((s.seeking || dct < 0 || dct * 1000 > dtMs * MAX_RATE + 250) && Math.abs(s.currentTime - stallCt) > NUDGE_S) {
          // A real seek away from the stalled position: what follows is seek time, not this stall.
          out.push(endStall(p.t, 'seek'));
          phase = 'idle';
        }
        break;
      case 'idle':
        if (interrupted) break;
        if (progressed) {
          phase = 'playing';
          lastProgress = stoppedAt;
        } else if (p.paused && !p.seeking) {
          // Play resumed after a pause: from now on the playhead owes progress.
          phase = 'playing';
          lastProgress = s.t;
        }
        break;
    }
    return out;
  }

  return {
    sample,
    hint(signal, t) {
      if (phase === 'stalled') signals.add(signal);
      else if (phase === 'playing') {
        hints = hints.filter((h) => h.t >= t - HINT_LEAD_MS - thresholdMs);
        hints.push({ signal, t });
      }
    },
    markLoadStart(t) {
      if (phase === 'loading') loadStart = t;
    },
    get phase() {
      return phase;
    },
  };
}
