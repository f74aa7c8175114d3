/** A rendition change as the QoE probe records it (`switch` events: epoch ms on the page's clock). */
export interface RenditionSwitch {
  at: number;
  /** hls.js: 'main'; dash.js: the media type ('video', 'audio'). */
  track: string;
  to: string;
  /** Bits/s of the rendition switched to (hls.js: the variant's BANDWIDTH; dash.js: @bandwidth), if known. */
  bitrate: number | null;
}

/** What a ladder run's player did with its renditions (runs with `--stream A+B-Ls`). */
export interface AbrFigures {
  /** The track counted: hls.js `main`, dash.js `video`. */
  track: string;
  /** The ladder's top rendition, bits/s. */
  topBps: number;
  /** The rendition the player rendered first (its default start level), bits/s; null if it never rendered. */
  startBps: number | null;
  /** Share of playing time at the top rendition, 0–1: first rendered frame → the end of the run, stalls taken out. */
  topShare: number | null;
  /** Changes of the rendered rendition after the first. */
  switches: number;
  /** Playing seconds per rendition (bits/s as the key; `unknown` when the probe had no bitrate). */
  playingS: Record<string, number>;
  /** The rendered renditions in order: seconds after the first, bits/s. */
  timeline: { atS: number; bps: number | null }[];
  /**
   * Media segment fetches the origin served per rendition (its `/stats`, stream name → fetches): what
   * crossed the backhaul, for the player (E2E) or for the edge's prefetch and misses.
   */
  originFetches?: Record<string, number>;
}

/**
 * The ladder figures of one run from the probe's switch events and stalls (pure). The players
 * report the rendition they render, not the one they fetch (hls.js LEVEL_SWITCHED on the playing
 * fragment, dash.js `qualityChangeRendered`), and both report the first one too: the first event
 * is the start level and playing time counts from it. A stall freezes the picture: its time is no
 * rendition's.
 */
export function abrFigures(o: {
  switches: readonly RenditionSwitch[];
  stalls: readonly { start: number; end: number }[];
  track: string;
  topBps: number;
  /** When the run's measurement ended (the report was read), epoch ms on the page's clock. */
  endMs: number;
}): AbrFigures {
  const events: RenditionSwitch[] = [];
  for (const s of o.switches) {
    if (s.track !== o.track || s.at > o.endMs) continue;
    // The probe dedupes per track already; an event that repeats the rendition is no change.
    if (events.length > 0 && events.at(-1)!.to === s.to) continue;
    events.push(s);
  }
  const first = events[0];
  if (first === undefined)
    return { track: o.track, topBps: o.topBps, startBps: null, topShare: null, switches: 0, playingS: {}, timeline: [] };
  const playingS: Record<string, number> = {};
  let total = 0;
  let top = 0;
  for (let i = 0; i < events.length; i++) {
    const from = events[i]!.at;
    const to = events[i + 1]?.at ?? o.endMs;
    const ms = Math.max(0, to - from - stalledWithin(o.stalls, from, to));
    const b = events[i]!.bitrate;
    const key = b === null ? 'unknown' : String(b);
    playingS[key] = (playingS[key] ?? 0) + ms / 1000;
    total += ms;
    // The probe's bitrate is the manifest's figure for the rendition, exactly the ladder's.
    if (b !== null && b >= o.topBps) top += ms;
  }
  return {
    track: o.track,
    topBps: o.topBps,
    startBps: first.bitrate,
    topShare: total > 0 ? top / total : null,
    switches: events.length - 1,
    playingS,
    timeline: events.map((e) => ({ atS: (e.at - first.at) / 1000, bps: e.bitrate })),
  };
}

/** How much of [from, to] the stalls cover, ms (stalls do not overlap one another). */
function stalledWithin(stalls: readonly { start: number; end: number }[], from: number, to: number): number {
  let ms = 0;
  for (const s of stalls) ms += Math.max(0, Math.min(s.end, to) - Math.max(s.start, from));
  return ms;
}

/** The track a player's rendition switches are on: hls.js has one (`main`), dash.js one per media type. */
export const abrTrack = (player: 'hls' | 'dash'): string => (player === 'dash' ? 'video' : 'main');

/** `15@0s 50@14s`: the rendered renditions in Mbit/s and when (s after the first), for runs.csv. */
export function renditionChanges(a: Pick<AbrFigures, 'timeline'> | undefined): string {
  return (a?.timeline ?? []).map((t) => `${t.bps === null ? '?' : +(t.bps / 1e6).toFixed(1)}@${t.atS.toFixed(0)}s`).join(' ');
}
