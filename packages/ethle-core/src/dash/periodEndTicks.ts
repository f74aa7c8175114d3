import type { MpdPeriod, MpdTemplate } from './MpdInfo.js';

/** The period's end in the template's media time (ticks); +∞ when the period is open-ended. */
export function periodEndTicks(p: MpdPeriod, t: MpdTemplate): number {
  return p.durationSeconds === undefined ? Number.POSITIVE_INFINITY : t.presentationTimeOffset + p.durationSeconds * t.timescale;
}
