/**
 * The bandwidth estimate a DASH player starts an adaptation set with when it knows nothing yet,
 * bits/s: dash.js (5.x, AbrController.getInitialBitrateFor) with no `initialBitrate` setting, no
 * bitrate saved from an earlier session and no throughput sample takes 1000 kbit/s for video and
 * 100 kbit/s for any other type; Shaka's default estimate (`abr.defaultBandwidthEstimate`) is
 * 1 Mbit/s too.
 */
export const START_ESTIMATE_BPS = { video: 1_000_000, other: 100_000 } as const;

/** What the start choice reads of a Representation. */
export interface StartCandidate {
  bandwidth: number;
  mimeType: string | undefined;
  contentType: string | undefined;
}

/**
 * The index of the Representation a player starts an adaptation set on, as dash.js picks it
 * (getOptimalRepresentationForBitrate): the highest @bandwidth within the start estimate, else the
 * lowest. A ladder above 1 Mbit/s (ETHLE's 15 and 50 Mbit/s) starts on its lowest rung; a player
 * configured or remembered higher starts higher, and its first segment request moves the plan there.
 * Undefined for an empty list.
 */
export function startRepresentation(reps: readonly StartCandidate[]): number | undefined {
  let lowest: number | undefined;
  let within: number | undefined;
  for (let i = 0; i < reps.length; i++) {
    const r = reps[i]!;
    const estimate = isVideo(r) ? START_ESTIMATE_BPS.video : START_ESTIMATE_BPS.other;
    if (lowest === undefined || r.bandwidth < reps[lowest]!.bandwidth) lowest = i;
    if (r.bandwidth <= estimate && (within === undefined || r.bandwidth > reps[within]!.bandwidth)) within = i;
  }
  return within ?? lowest;
}

function isVideo(r: StartCandidate): boolean {
  return r.contentType === 'video' || (r.mimeType?.startsWith('video/') ?? false);
}
