/**
 * The one table of hold limits, read by every module that takes an x: the pure rewriters
 * (holdMediaPlaylist, holdMpd), the model (decideHold, modelHold), both edges' configs and the
 * operator's calculator. `max` bounds what is accepted at all; `defaultMax` is x_max when an
 * operator sets none (paper III-B: x parallel origin connections per stream).
 */
export const HOLD_LIMITS = {
  max: 100,
  defaultMax: 4,
} as const;
