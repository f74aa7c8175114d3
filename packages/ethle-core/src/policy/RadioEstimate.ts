/** Where a receiver's radio throughput estimate (th_ran) came from, in the order they are tried. */
export type RadioSource = 'rni' | 'measured' | 'cmcd' | 'default';

/** Why a source that was present was not used. */
export type RadioSkip =
  /** The edge's own measurement covers less than one segment's bytes. */
  | 'measured-too-few-bytes'
  /** CMCD mtp arrived before the receiver downloaded any media segment (no buffer, no history). */
  | 'cmcd-before-first-segment'
  /** CMCD mtp equals a player's pre-measurement default and the history shows no segment. */
  | 'cmcd-player-default';

/** What the estimate was chosen from: enough to log a decision and check it later. */
export interface RadioEvidence {
  rniBps: number | undefined;
  measuredBps: number | undefined;
  measuredBytes: number | undefined;
  segmentBytes: number;
  mtpKbps: number | undefined;
  blMs: number | undefined;
  segmentsDownloaded: number;
  skipped: readonly RadioSkip[];
}

export interface RadioEstimate {
  /** th_ran, bits/s. */
  bps: number;
  source: RadioSource;
  evidence: RadioEvidence;
}
