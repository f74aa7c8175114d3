import { CHUNK_SECONDS, type LoopMedia } from '../media/LoopMedia.js';
import type { LiveClock } from '../streams/LiveClock.js';
import type { StreamSpec } from '../streams/StreamSpec.js';
import { mpdPeriods, type MpdPeriodSpan } from './mpdPeriods.js';
import { scte35EventStream } from './scte35EventStream.js';

const iso = (ms: number) => new Date(ms).toISOString();
const dur = (s: number) => `PT${s}S`;

export interface MpdOptions {
  /** Absolute URL of the origin's time endpoint (UTCTiming). */
  timeUrl: string;
  /**
   * `$Number$` template without timeline, SegmentTimeline with `$Time$`, or SegmentList (one
   * SegmentURL per segment from the Period's start: multi-period only, or the list would grow forever).
   */
  addressing: 'number' | 'timeline' | 'list';
  /** A new Period every `periodSeconds` (a multiple of the segment length); absent: one Period from T0. */
  periodSeconds?: number;
  /** MPD.Location: the absolute URL to refresh the MPD from. */
  location?: string;
  /** MPD-level BaseURL (absolute) that the segment URLs resolve against. */
  baseUrl?: string;
  /** An SCTE-35 EventStream per Period with the CueSchedule's breaks. */
  scte35?: boolean;
  /**
   * Low-latency DASH (`number` addressing only): segments `ll/dash/…` delivered chunk by chunk while
   * produced, so each is announced `availabilityTimeOffset` = L − chunkSeconds early with
   * `availabilityTimeComplete="false"`, and a ServiceDescription asks for `targetLatencyMs`.
   */
  lowLatency?: { chunkSeconds: number; targetLatencyMs: number };
  /**
   * An ABR ladder (`number` addressing only): every stream here (all of `s`'s segment length) is a
   * video Representation of one AdaptationSet, id = the stream's name, its segments
   * `$RepresentationID$/dash/v/$Number$.m4s` relative to an MPD in `/live/`; audio is `s`'s.
   */
  ladder?: readonly StreamSpec[];
}

/**
 * A dynamic MPD (DASH-IF IOP live): separate video and audio adaptation sets (dash.js does not
 * play multiplexed representations), availabilityStartTime = the origin's epoch T0, segment n of
 * length L available at AST + (n+1)·L.
 */
export function dashMpd(s: StreamSpec, clock: LiveClock, media: LoopMedia, nowMs: number, o: MpdOptions): string {
  const L = s.segmentSeconds;
  if (o.addressing === 'list' && o.periodSeconds === undefined) throw new RangeError('SegmentList MPDs need periodSeconds');
  const periods = mpdPeriods(clock.oldest(L, nowMs), clock.newest(L, nowMs), L, o.periodSeconds);
  const multi = o.periodSeconds !== undefined;
  if (o.lowLatency && o.addressing !== 'number') throw new RangeError('low-latency MPDs use $Number$ addressing');
  if (o.ladder && (o.addressing !== 'number' || o.lowLatency || o.ladder.some((x) => x.segmentSeconds !== L)))
    throw new RangeError('a ladder MPD uses $Number$ addressing, no low latency, one segment length');
  const ll = o.lowLatency;
  const head = [
    ...(o.baseUrl ? [`  <BaseURL>${o.baseUrl}</BaseURL>\n`] : []),
    ...(o.location ? [`  <Location>${o.location}</Location>\n`] : []),
    ...(ll ? [serviceDescription(ll.targetLatencyMs)] : []),
  ].join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011${ll ? ',http://www.dashif.org/guidelines/low-latency-live-v5' : ''}" type="dynamic"
  availabilityStartTime="${iso(clock.t0Ms)}" publishTime="${iso(nowMs)}" minimumUpdatePeriod="${dur(L)}"
  minBufferTime="${dur(L)}" timeShiftBufferDepth="${dur(clock.windowSeconds)}" suggestedPresentationDelay="${dur(3 * L)}" maxSegmentDuration="${dur(L)}">
${head}${periods.map((p) => period(s, media, p, o, multi)).join('')}  <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="${o.timeUrl}"/>
</MPD>
`;
}

function period(s: StreamSpec, media: LoopMedia, p: MpdPeriodSpan, o: MpdOptions, multi: boolean): string {
  const L = s.segmentSeconds;
  // The media timeline is one continuous stream from T0: a Period starting p·P after T0 has
  // presentationTimeOffset = p·P in each track's timescale. (Not the decode time of the Period's
  // first audio frame: that is up to one AAC frame later, and using it would shift audio against
  // video at every Period start.)
  const pto = (kind: 'v' | 'a') => (multi ? ` presentationTimeOffset="${p.startSeconds * media.timescale(kind)}"` : '');
  const addressing = (kind: 'v' | 'a') => {
    const scale = media.timescale(kind);
    if (o.ladder) {
      // Relative to /live/: each Representation's own stream directory (audio: the first stream's).
      const dir = kind === 'v' ? '$RepresentationID$' : s.name;
      return `<SegmentTemplate timescale="${scale}"${pto(kind)} duration="${L * scale}" startNumber="${p.periodFirst}" initialization="${dir}/dash/${kind}/init.mp4" media="${dir}/dash/${kind}/$Number$.m4s"/>`;
    }
    if (o.addressing === 'number') {
      if (o.lowLatency) {
        const ato = Number((L - o.lowLatency.chunkSeconds).toFixed(3));
        return `<SegmentTemplate timescale="${scale}"${pto(kind)} duration="${L * scale}" startNumber="${p.periodFirst}" availabilityTimeOffset="${ato}" availabilityTimeComplete="false" initialization="ll/dash/${kind}/init.mp4" media="ll/dash/${kind}/$Number$.m4s"/>`;
      }
      return `<SegmentTemplate timescale="${scale}"${pto(kind)} duration="${L * scale}" startNumber="${p.periodFirst}" initialization="dash/${kind}/init.mp4" media="dash/${kind}/$Number$.m4s"/>`;
    }
    if (o.addressing === 'timeline') {
      return `<SegmentTemplate timescale="${scale}"${pto(kind)} initialization="dash/${kind}/init.mp4" media="dash/${kind}/t$Time$.m4s">\n        <SegmentTimeline>${timeline(media, kind, L, p.first, p.last)}</SegmentTimeline>\n      </SegmentTemplate>`;
    }
    // SegmentList: entries from the Period's start (the first is the Period's first segment, for
    // any reading of @startNumber), including those that left the time-shift buffer.
    const urls: string[] = [];
    for (let n = p.periodFirst; n <= p.last; n++) urls.push(`\n        <SegmentURL media="dash/${kind}/${n}.m4s"/>`);
    return `<SegmentList timescale="${scale}"${pto(kind)} duration="${L * scale}">\n        <Initialization sourceURL="dash/${kind}/init.mp4"/>${urls.join('')}\n      </SegmentList>`;
  };
  const events = o.scte35 ? scte35EventStream(p, L) : '';
  return `  <Period id="${multi ? `p${p.index}` : '0'}" start="${dur(p.startSeconds)}">
${events}    <AdaptationSet id="0" contentType="video" mimeType="video/mp4" codecs="${media.codecs('v').join(',')}" segmentAlignment="true" startWithSAP="1" maxWidth="320" maxHeight="180" frameRate="25">
      ${addressing('v')}
      ${(o.ladder ?? [s]).map((r) => `<Representation id="${o.ladder ? r.name : `v${r.bitrateMbps}M`}" bandwidth="${Math.round(r.bitrateMbps * 1e6)}" width="320" height="180" sar="1:1"/>`).join('\n      ')}
    </AdaptationSet>
    <AdaptationSet id="1" contentType="audio" mimeType="audio/mp4" codecs="${media.codecs('a').join(',')}" lang="und" segmentAlignment="true" startWithSAP="1">
      <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="1"/>
      ${addressing('a')}
      <Representation id="a32k" bandwidth="32000" audioSamplingRate="48000"/>
    </AdaptationSet>
  </Period>
`;
}

/** The latency a low-latency player should keep (DASH-IF IOP low-latency: Latency and PlaybackRate). */
function serviceDescription(targetMs: number): string {
  return `  <ServiceDescription id="0">
    <Latency referenceId="0" target="${targetMs}" min="${Math.round(targetMs / 2)}" max="${2 * targetMs}"/>
    <PlaybackRate min="0.96" max="1.04"/>
  </ServiceDescription>
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
