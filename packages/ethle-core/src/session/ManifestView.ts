import type { HeldPlaylistPosition } from '../hls/planBlockingReload.js';
import type { HlsPartPosition } from '../hls/HlsPartPosition.js';

/** One segment an origin manifest says is produced, as the edge fetches and caches it. */
export interface SegmentRef {
  /** Which sequence it belongs to (HLS: the playlist; DASH: the representation). Ids are per track. */
  track: string;
  /** Sequence number (HLS media sequence, DASH $Number$ or timeline index). */
  id: number;
  /** Origin path (+query) relative to the origin base URL; also the edge path and cache key. */
  path: string;
  durationSeconds: number;
  /** When the origin had it whole (epoch ms): HLS PDT + duration, DASH availability; if known. */
  availableAtMs?: number;
}

/**
 * One Representation of a DASH ladder as the edge plans it: its track (SegmentRef.track), the
 * adaptation set it belongs to (one key across Periods: the set's @id, else its mime or content
 * type), its advertised bits/s, and whether it is the one a player starts that set on
 * (dash/startRepresentation).
 */
export interface Rendition {
  track: string;
  set: string;
  bandwidthBps: number;
  start: boolean;
}

/** A held manifest text, rewritten once per origin version × x. */
export interface HeldManifest {
  text: string;
  holdSegments: number;
  /**
   * The latency the hold adds for a player (X-Ethle-Hold-Seconds): what the manifest no longer
   * lists, plus `lowLatencyLostSeconds`.
   */
  holdSeconds: number;
  /** Why fewer segments than asked were held (core reasons: 'short-window', 'ended', 'short-timeline', 'segment-list', …). */
  reason?: string;
  /**
   * The text depends on the time as well as on the origin version (DASH S@r=−1 at the live edge):
   * it is right until this instant (epoch ms); a cached rewrite must be made again from then on.
   */
  validUntilMs?: number;
  /** Held in parts (LL-HLS) or chunks (LL-DASH): how many. Absent for a whole-segment hold. */
  holdParts?: number;
  /**
   * An LL-HLS playlist held in whole segments loses its low-latency features (the edge then
   * answers no blocking reloads): players fall back from PART-HOLD-BACK to HOLD-BACK (3 target
   * durations unless given; core lowLatencyFallbackSeconds). The seconds that adds, included in
   * `holdSeconds`; absent when nothing was lost.
   */
  lowLatencyLostSeconds?: number;
  /**
   * LL-HLS held in parts: the newest segment and part the served playlist lists, what a receiver's
   * blocking reload (`_HLS_msn`/`_HLS_part`) is judged against (core planBlockingReload).
   */
  position?: HeldPlaylistPosition;
}

/** What holding in parts needs of a low-latency manifest (LL-HLS parts, LL-DASH chunks). */
export interface LowLatencyInfo {
  /** One part's (HLS PART-TARGET) or chunk's length, seconds: what one held part costs in latency. */
  partSeconds: number;
  /**
   * LL-HLS whose origin can block (CAN-BLOCK-RELOAD=YES): the part the origin lists next, what the
   * edge's one blocking poll per stream asks for (`_HLS_msn`/`_HLS_part`).
   */
  nextPart?: HlsPartPosition;
  /**
   * LL-HLS: origin paths of the preload-hinted part, then the listed parts newest first (bounded):
   * what the edge prefetches, each once.
   */
  partPaths: readonly string[];
}

/**
 * What the edge needs from one parsed origin manifest version. Built by the core's parsers
 * (see loadManifest); the edge never interprets manifest text itself.
 */
export interface ManifestView {
  kind: 'hls-media' | 'hls-multivariant' | 'dash';
  /** Nominal segment length (HLS target duration, DASH segment duration), seconds. */
  segmentSeconds: number;
  /** State handed to the next version's loader (HLS history), opaque to the edge. */
  carry: unknown;
  /** HLS: the first segment's media sequence number (a live origin's only goes up). */
  firstId?: number;
  /** How often the origin manifest should be re-fetched (ms). */
  pollIntervalMs: number;
  /**
   * When the origin should list its next segment (epoch ms), if the manifest dates its segments
   * (HLS program date-time): the poller aims just after it instead of at a fixed cadence, so a
   * segment reaches receivers' playlists within a round trip of its production, not up to half a
   * target duration later (which would add to the declared hold).
   */
  nextSegmentDueMs?: number;
  /**
   * The bitrate the manifest advertises for its segments, bits/s (HLS EXT-X-BITRATE of the newest
   * segment; DASH: per adaptation set the @bandwidth of the Representation players start on,
   * summed: a single-Representation set's one, a ladder's start choice). Gives the model s_seg
   * before any segment has been fetched.
   */
  bitrateHintBps?: number;
  /**
   * DASH with an ABR ladder (some adaptation set of a Period has more than one Representation):
   * every Representation of the MPD, in MPD order. The edge then prefetches per adaptation set
   * what its receivers play and sizes s_seg by it (StreamProgress.plannedTracks,
   * segmentBytesEstimate). Absent for any other manifest: every track is planned as it is listed.
   */
  ladder?: readonly Rendition[];
  /** Multivariant playlists: each variant's media playlist (origin path) and its advertised bits/s. */
  variantBitrates?: ReadonlyArray<{ path: string; bps: number }>;
  /**
   * URIs (as written in the manifest) left absolute because they are on another host than the
   * origin: players fetch them directly, past the edge. Worth a log line per stream.
   */
  leftAbsolute: readonly string[];
  /** Segments produced at nowMs, ascending id per track (DASH $Number$ depends on the clock). */
  segments(nowMs: number): SegmentRef[];
  /** The manifest with the newest x segments held (at nowMs), URIs routed as the loader was told. */
  hold(x: number, sessionToken: string | undefined, nowMs: number): HeldManifest;
  /** Low-latency manifests only (LL-HLS with parts, LL-DASH with chunked templates). */
  lowLatency?: LowLatencyInfo;
  /** Low-latency manifests only: the newest n parts (HLS) or chunks (DASH) held, LL features kept. */
  holdParts?(n: number, sessionToken: string | undefined, nowMs: number): HeldManifest;
}
