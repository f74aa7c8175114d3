import { parseStreamName, type StreamSpec } from '@ethle/live-origin';

/**
 * An ABR ladder of the testbed's origin, named `15M+50M-2s`: its streams of one segment length
 * (`--streams 15M-2s,50M-2s`), which the origin serves as one HLS multivariant playlist
 * (`/live/master-2s.m3u8`, a variant each) and one MPD (`/live/master-2s.mpd`, a video
 * Representation each). The players choose among them with their default ABR.
 */
export interface Ladder {
  name: string;
  /** Lowest first: the origin's streams in the order its multivariant playlist lists them. */
  renditions: StreamSpec[];
  segmentSeconds: 2 | 4 | 10;
  /** The highest rendition: the largest segments, which the players' forward buffer is sized for. */
  top: StreamSpec;
}

const LADDER_RE = /^(\d{1,3}M(?:\+\d{1,3}M)+)-(2|4|10)s$/;

/**
 * Parses a ladder name, `{a}M+{b}M[+…]-{2|4|10}s` with bitrates strictly ascending (one name per
 * ladder; hls.js starts at the first variant listed, so the order is part of what is run).
 * Undefined for anything else, a single stream's name included.
 */
export function parseLadderName(name: string): Ladder | undefined {
  const m = LADDER_RE.exec(name);
  if (!m) return undefined;
  const seconds = m[2]!;
  const renditions: StreamSpec[] = [];
  for (const rate of m[1]!.split('+')) {
    const spec = parseStreamName(`${rate}-${seconds}s`);
    if (!spec) return undefined;
    if (renditions.length > 0 && spec.bitrateMbps <= renditions.at(-1)!.bitrateMbps) return undefined;
    renditions.push(spec);
  }
  return { name, renditions, segmentSeconds: renditions[0]!.segmentSeconds, top: renditions.at(-1)! };
}

/** The ladder's manifest at the origin (and, same path, at the edge): the multivariant playlist or the MPD. */
export function ladderManifestPath(l: Ladder, player: 'hls' | 'dash'): string {
  return `/live/master-${l.segmentSeconds}s.${player === 'dash' ? 'mpd' : 'm3u8'}`;
}

/**
 * The rendition a segment path belongs to (`/live/50M-2s/12.m4s`, `/live/50M-2s/dash/v/12.m4s` →
 * `50M-2s`); undefined for the ladder's DASH audio (`dash/a/`, served from the lowest rendition's
 * directory) and for paths of no rendition.
 */
export function renditionOfPath(l: Ladder, path: string): string | undefined {
  const m = /^\/live\/([0-9A-Za-z-]{1,16})\/(dash\/a\/)?/.exec(path);
  if (!m || m[2] !== undefined) return undefined;
  return l.renditions.some((r) => r.name === m[1]) ? m[1] : undefined;
}
