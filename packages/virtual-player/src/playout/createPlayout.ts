/**
 * Playout at 1× from a wall clock, without decoding: what a `<video>` element fed by MSE does with
 * whole segments. Pure — every call takes `nowMs` — so the stall and startup rules are tested
 * without sockets or timers.
 *
 * The rules (both hls.js and dash.js append a segment only once it has fully arrived — hls.js
 * `progressive: false`, dash.js outside low-latency mode — so "buffered" means "last byte arrived"):
 * - playback starts when every track has media buffered at the start position (Chromium reaches
 *   HAVE_FUTURE_DATA and autoplays; neither player waits for more: hls.js has no start threshold,
 *   dash.js 5.2.1 `syntheticStallEvents.enabled` is false so its 0.3 s `stallThreshold` does not
 *   gate the element);
 * - the playhead advances at real time until it reaches the end of the contiguous media buffered
 *   in the slowest track: a stall starts at that instant;
 * - a stall ends as soon as media beyond the playhead is buffered again in every track (the same
 *   HAVE_FUTURE_DATA rule; one appended segment is always more than Chromium needs).
 */
export interface BufferedSegment {
  /** 'main' (hls.js), 'video' / 'audio' (dash.js). */
  track: string;
  /** Media interval on the player's timeline, s. */
  start: number;
  end: number;
  /** Production time of the segment's first frame, ms since the epoch, when known. */
  productionStartMs?: number;
}

export interface PlayoutStall {
  /** When the playhead reached the end of the buffer, ms. */
  start: number;
  /** When it moved again, ms. */
  end: number;
  durationMs: number;
  signals: string[];
}

export type PlayoutEvent =
  | { type: 'startup'; at: number; startupMs: number }
  | { type: 'stallStart'; start: number; position: number }
  | { type: 'stallEnd'; stall: PlayoutStall };

export type PlayoutPhase = 'loading' | 'playing' | 'stalled';

export interface PlayoutOptions {
  /** Every track that must be buffered to play (hls.js: ['main']; dash.js: ['video', 'audio']). */
  tracks: readonly string[];
  /** Where playback starts on the media timeline, s. */
  startPosition: number;
  /** The load request, ms: startup is measured from it (as the probe does). */
  loadStartMs: number;
  /** Largest gap between segments still played through, s (hls.js `maxBufferHole`, 0.1). */
  maxHole?: number;
  /** Media kept behind the playhead, s (only bounds memory). */
  backBuffer?: number;
}

export interface Playout {
  readonly phase: PlayoutPhase;
  /** Playhead at `nowMs` (does not change state). */
  position(nowMs: number): number;
  /** Moves the clock to `nowMs`: a playhead that ran dry starts a stall. */
  advance(nowMs: number): PlayoutEvent[];
  /** A segment whose last byte arrived at `nowMs`. */
  append(segment: BufferedSegment, nowMs: number): PlayoutEvent[];
  /** Contiguous media ahead of the playhead at `nowMs` in `track`, or in the slowest track, s. */
  bufferAhead(nowMs: number, track?: string): number;
  /** Production time of the frame at `position` (first track), ms since the epoch. */
  productionTimeAt(position: number): number | undefined;
}

const EPS = 1e-6;

export function createPlayout(o: PlayoutOptions): Playout {
  const maxHole = o.maxHole ?? 0.1;
  const backBuffer = o.backBuffer ?? 30;
  const buffers = new Map<string, BufferedSegment[]>(o.tracks.map((t) => [t, []]));
  let phase: PlayoutPhase = 'loading';
  let pos = o.startPosition;
  let posAt = o.loadStartMs;
  let stallStart = 0;

  /** End of the media buffered contiguously from `p` in one track (p itself when none covers it). */
  function contiguousEnd(track: string, p: number): number {
    const list = buffers.get(track)!;
    let end = p;
    let covered = false;
    for (const s of list) {
      if (!covered) {
        if (s.start <= p + maxHole && s.end > p + EPS) {
          covered = true;
          end = s.end;
        }
      } else if (s.start <= end + maxHole) end = Math.max(end, s.end);
      else break;
    }
    return end;
  }

  const bufferEnd = (p: number) => Math.min(...o.tracks.map((t) => contiguousEnd(t, p)));

  function position(nowMs: number): number {
    if (phase !== 'playing' || nowMs <= posAt) return pos;
    return Math.min(bufferEnd(pos), pos + (nowMs - posAt) / 1000);
  }

  function advance(nowMs: number): PlayoutEvent[] {
    if (nowMs <= posAt) return [];
    if (phase !== 'playing') {
      posAt = nowMs;
      return [];
    }
    const end = bufferEnd(pos);
    const played = (nowMs - posAt) / 1000;
    if (pos + played < end - EPS) {
      pos += played;
      posAt = nowMs;
      return [];
    }
    // Ran dry between the last call and now: the stall began when the playhead hit the end.
    stallStart = posAt + Math.max(0, end - pos) * 1000;
    pos = end;
    posAt = nowMs;
    phase = 'stalled';
    return [{ type: 'stallStart', start: stallStart, position: pos }];
  }

  function append(segment: BufferedSegment, nowMs: number): PlayoutEvent[] {
    const events = advance(nowMs);
    const list = buffers.get(segment.track);
    if (!list) throw new RangeError(`unknown track ${segment.track}`);
    list.push(segment);
    list.sort((a, b) => a.start - b.start);
    while (list.length > 1 && list[0]!.end < pos - backBuffer) list.shift();
    if (phase !== 'playing' && bufferEnd(pos) > pos + EPS) {
      if (phase === 'loading') events.push({ type: 'startup', at: nowMs, startupMs: nowMs - o.loadStartMs });
      else
        events.push({
          type: 'stallEnd',
          stall: { start: stallStart, end: nowMs, durationMs: nowMs - stallStart, signals: ['buffer-empty'] },
        });
      phase = 'playing';
      posAt = nowMs;
    }
    return events;
  }

  return {
    get phase() {
      return phase;
    },
    position,
    advance,
    append,
    bufferAhead(nowMs, track) {
      const p = position(nowMs);
      return Math.max(0, (track === undefined ? bufferEnd(p) : contiguousEnd(track, p)) - p);
    },
    productionTimeAt(position) {
      const list = buffers.get(o.tracks[0]!)!;
      const s = list.find((x) => x.start - EPS <= position && position <= x.end + EPS);
      if (s?.productionStartMs === undefined) return undefined;
      return s.productionStartMs + (position - s.start) * 1000;
    },
  };
}
