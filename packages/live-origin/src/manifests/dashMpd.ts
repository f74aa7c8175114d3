import { CHUNK_SECONDS, type LoopMedia } from '../media/LoopMedia.js';
import type { LiveClock } from '../streams/LiveClock.js';
import type { StreamSpec } from '../streams/StreamSpec.js';

const iso = (ms: number) => new Date(ms).toISOString();
const dur = (s: number) => `PT${s}S`;

export interface MpdOptions {
  /** Absolute URL of the origin's time endpoint (UTCTiming). */
  timeUrl: string;
  /** `$Number$` template without timeline, or SegmentTimeline with `$Time$`. */
  addressing: 'number' | 'timeline';
}

/**
 * A dynamic MPD (DASH-IF IOP live): separate video and audio adaptation sets (dash.js does not
 * play multiplexed representations), availabilityStartTime = the origin's epoch T0, segment n of
 * length L available at AST + (n+1)·L.
 */
export function dashMpd(s: StreamSpec, clock: LiveClock, media: LoopMedia, nowMs: number, o: MpdOptions): string {
  const L = s.segmentSeconds;
  const first = clock.oldest(L, nowMs);
  const last = clock.newest(L, nowMs);
  const vScale = media.timescale('v');
  const aScale = media.timescale('a');
  const template = (kind: 'v' | 'a', scale: number) => {
    if (o.addressing === 'number') {
      return `<SegmentTemplate timescale="${scale}" duration="${L * scale}" startNumber="0" initialization="dash/${kind}/init.mp4" media="dash/${kind}/$Number$.m4s"/>`;
    }
    return `<SegmentTemplate timescale="${scale}" initialization="dash/${kind}/init.mp4" media="dash/${kind}/t$Time$.m4s">\n        <SegmentTimeline>${timeline(media, kind, L, first, last)}</SegmentTimeline>\n      </SegmentTemplate>`;
  };
  return `<?xml version="1.0" encoding="UTF-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="dynamic"
  availabilityStartTime="${iso(clock.t0Ms)}" publishTime="${iso(nowMs)}" minimumUpdatePeriod="${dur(L)}"
  minBufferTime="${dur(L)}" timeShiftBufferDepth="${dur(clock.windowSeconds)}" suggestedPresentationDelay="${dur(3 * L)}" maxSegmentDuration="${dur(L)}">
  <Period id="0" start="PT0S">
    <AdaptationSet id="0" contentType="video" mimeType="video/mp4" codecs="${media.codecs('v').join(',')}" segmentAlignment="true" startWithSAP="1" maxWidth="320" maxHeight="180" frameRate="25">
      ${template('v', vScale)}
      <Representation id="v${s.bitrateMbps}M" bandwidth="${Math.round(s.bitrateMbps * 1e6)}" width="320" height="180" sar="1:1"/>
    </AdaptationSet>
    <AdaptationSet id="1" contentType="audio" mimeType="audio/mp4" codecs="${media.codecs('a').join(',')}" lang="und" segmentAlignment="true" startWithSAP="1">
      <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="1"/>
      ${template('a', aScale)}
      <Representation id="a32k" bandwidth="32000" audioSamplingRate="48000"/>
    </AdaptationSet>
  </Period>
  <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="${o.timeUrl}"/>
</MPD>
`;
}

/** S entries for segments [first, last]: real decode times, runs of equal durations folded into @r. */
function timeline(media: LoopMedia, kind: 'v' | 'a', L: number, first: number, last: number): string {
  const k = L / CHUNK_SECONDS;
  const out: string[] = [];
  let runStart = -1;
  let runD = -1;
  let runR = 0;
  for (let n = first; n <= last; n++) {
    const t = media.chunkDecodeTime(kind, n * k);
    const d = media.chunkDecodeTime(kind, (n + 1) * k) - t;
    if (d === runD) {
      runR += 1;
      continue;
    }
    if (runD >= 0) out.push(sEntry(runStart, runD, runR));
    runStart = t;
    runD = d;
    runR = 0;
  }
  if (runD >= 0) out.push(sEntry(runStart, runD, runR));
  return out.join('');
}

function sEntry(t: number, d: number, r: number): string {
  return r > 0 ? `<S t="${t}" d="${d}" r="${r}"/>` : `<S t="${t}" d="${d}"/>`;
}
