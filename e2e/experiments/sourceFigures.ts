import type { SourceRecordJson } from '@ethle/live-origin';
import type { SourceProbe } from './probeSource.js';

/** A track's segments as the relay served them: how many, their sizes and lengths, the bitrate they make. */
export interface TrackFigures {
  track: string;
  segments: number;
  bytes: { mean: number; min: number; max: number };
  durationS: { mean: number; min: number; max: number };
  /** Σ bytes · 8 / Σ duration, Mbit/s. */
  bitrateMbps: number;
}

/**
 * What a run on the user's own source (`--source`) records of it: the probe made before the run
 * (what sized the players' buffer and named the model's s_seg), and per track the segments the
 * relaying origin served — sizes, durations, bitrate — with every segment listed (bounded by the
 * relay's record), so a reader can tell a CBR 4K stream from a bursty one.
 */
export interface SourceFigures {
  url: string;
  probe: SourceProbe;
  tracks: TrackFigures[];
  /** Every segment the relay served in the run (path, track, bytes, duration s). */
  segments: Array<{ path: string; track: string; bytes: number; durationS: number }>;
  /** Manifests the relay served and parsed, and those the core's parsers refused. */
  manifests: number;
  manifestErrors: number;
  /** Objects the relay's record had no room for (it holds 20,000). */
  dropped: number;
}

const stat = (xs: number[]) => ({ mean: xs.reduce((a, b) => a + b, 0) / xs.length, min: Math.min(...xs), max: Math.max(...xs) });

export function sourceFigures(url: string, probe: SourceProbe, rec: SourceRecordJson): SourceFigures {
  const segments = rec.segments.map((x) => ({ path: x.path, track: x.track ?? '', bytes: x.bytes, durationS: x.durationSeconds! }));
  const byTrack = new Map<string, typeof segments>();
  for (const x of segments) byTrack.set(x.track, [...(byTrack.get(x.track) ?? []), x]);
  const tracks = [...byTrack.entries()].map(([track, xs]): TrackFigures => {
    const seconds = xs.reduce((a, x) => a + x.durationS, 0);
    return {
      track,
      segments: xs.length,
      bytes: stat(xs.map((x) => x.bytes)),
      durationS: stat(xs.map((x) => x.durationS)),
      bitrateMbps: seconds > 0 ? (xs.reduce((a, x) => a + x.bytes, 0) * 8) / seconds / 1e6 : 0,
    };
  });
  return { url, probe, tracks, segments, manifests: rec.manifests, manifestErrors: rec.manifestErrors, dropped: rec.dropped };
}
