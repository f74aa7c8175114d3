import type { MpdTimelineEntry } from './MpdInfo.js';

/** Whole segments a span of `ticks` holds, tolerant of float noise in derived tick values. */
const floorDiv = (ticks: number, d: number) => Math.max(0, Math.floor(ticks / d + 1e-9));
const ceilDiv = (ticks: number, d: number) => Math.max(0, Math.ceil(ticks / d - 1e-9));

/**
 * How many segments each S entry stands for. r ≥ 0: r + 1. r = −1 repeats until the next S@t or the
 * period end — a last segment that starts before that end counts, as players count it (dash.js:
 * ceil) — and, in a live MPD, never past `nowTicks`: only segments complete by now exist.
 * `nowBound[i]` says an entry's count is set by now, i.e. it grows with time while the text stays.
 * A count of NaN means nothing ends the run (r = −1 last, open period, no now).
 */
export function timelineCounts(
  tl: readonly MpdTimelineEntry[],
  periodEndTicks: number,
  nowTicks: number,
): { counts: number[]; nowBound: boolean[] } {
  const counts: number[] = [];
  const nowBound: boolean[] = [];
  for (let i = 0; i < tl.length; i++) {
    const s = tl[i]!;
    if (s.r >= 0) {
      counts.push(s.r + 1);
      nowBound.push(false);
      continue;
    }
    const end = Math.min(tl[i + 1]?.t ?? Number.POSITIVE_INFINITY, periodEndTicks);
    const byEnd = Number.isFinite(end) ? ceilDiv(end - s.t, s.d) : Number.POSITIVE_INFINITY;
    const byNow = Number.isFinite(nowTicks) ? floorDiv(nowTicks - s.t, s.d) : Number.POSITIVE_INFINITY;
    const c = Math.min(byEnd, byNow);
    counts.push(Number.isFinite(c) ? c : Number.NaN);
    nowBound.push(byNow < byEnd);
  }
  return { counts, nowBound };
}
