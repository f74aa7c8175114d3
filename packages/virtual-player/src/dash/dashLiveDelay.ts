import type { DashSettings } from '../config/VirtualPlayerConfig.js';

/**
 * dash.js 5.2.1 `PlaybackController.computeAndSetLiveDelay`, first that applies: the
 * `liveDelay` setting; `liveDelayFragmentCount` × fragment duration (NaN by default in 5.x, so it
 * does not apply); a ServiceDescription latency (not modelled); the MPD's
 * `suggestedPresentationDelay` when `useSuggestedPresentationDelay`; 4 × the fragment duration;
 * 4 × `minBufferTime`. Capped at the DVR window (timeShiftBufferDepth). s.
 */
export function dashLiveDelay(
  s: Pick<DashSettings, 'liveDelay' | 'liveDelayFragmentCount' | 'useSuggestedPresentationDelay'>,
  mpd: {
    fragmentDuration: number;
    suggestedPresentationDelay: number | undefined;
    minBufferTime?: number;
    timeShiftBufferDepth: number | undefined;
  },
): number {
  let delay: number;
  if (!Number.isNaN(s.liveDelay)) delay = s.liveDelay;
  else if (!Number.isNaN(s.liveDelayFragmentCount) && Number.isFinite(mpd.fragmentDuration))
    delay = mpd.fragmentDuration * s.liveDelayFragmentCount;
  else if (s.useSuggestedPresentationDelay && mpd.suggestedPresentationDelay !== undefined && mpd.suggestedPresentationDelay > 0)
    delay = mpd.suggestedPresentationDelay;
  else if (Number.isFinite(mpd.fragmentDuration)) delay = mpd.fragmentDuration * 4;
  else delay = (mpd.minBufferTime ?? 2) * 4;
  return mpd.timeShiftBufferDepth !== undefined && mpd.timeShiftBufferDepth > 0 ? Math.min(delay, mpd.timeShiftBufferDepth) : delay;
}
