import { setTimeout as sleep } from 'node:timers/promises';
import {
  availableSegments,
  initializationUrl,
  parseMpd,
  type DashSegment,
  type MpdInfo,
  type MpdPeriod,
  type MpdRepresentation,
} from '@ethle/core';
import type { DashSettings } from '../config/VirtualPlayerConfig.js';
import type { ConnectionPool } from '../net/createConnectionPool.js';
import { fetchTimed, header, type TimedResponse } from '../net/fetchTimed.js';
import type { Session } from '../report/createSession.js';
import { VirtualPlayerError, VirtualPlayerErrorCodes, isVirtualPlayerError } from '../VirtualPlayerError.js';
import { dashLiveDelay } from './dashLiveDelay.js';

/** dash.js `streaming.retryIntervals.MediaSegment` (1000 ms) between attempts at a failed segment. */
const SEGMENT_RETRY_MS = 1000;

interface Track {
  name: 'video' | 'audio' | string;
  rep: MpdRepresentation;
  base: string;
  fragmentDuration: number;
  /** $Number$ of the next segment to load. */
  next: number | undefined;
  initLoaded: boolean;
  loading: boolean;
  timer: NodeJS.Timeout | undefined;
  retryAt: number;
}

/**
 * A live DASH receiver fetching like dash.js 5.2.1 with its defaults: clock synchronised through
 * the MPD's UTCTiming, start at the live edge (now, in presentation time) minus the live delay,
 * one ScheduleController per media type (video and audio in parallel, one request each at a time)
 * loading while the buffer level is below the target, MPD reloaded every minimumUpdatePeriod.
 * Segment availability is computed from the MPD and the synchronised clock, as dash.js does.
 * Resolves once the MPD is loaded and the start chosen; runs until `signal` aborts.
 */
export async function startDashPlayer(
  url: string,
  s: DashSettings,
  appendMs: number,
  pool: ConnectionPool,
  session: Session,
  signal: AbortSignal,
): Promise<void> {
  const now = session.now;
  const get = (u: string, keepBody: boolean) => fetchTimed(pool, u, { keepBody, signal, now });

  const first = await get(url, true);
  session.record('manifest', '', first);
  let info = parse(first);
  let mpdUrl = first.url;
  if (info.type !== 'dynamic')
    throw new VirtualPlayerError(VirtualPlayerErrorCodes.MANIFEST, `${url}: not a live MPD (type="${info.type}")`);
  const offsetMs = await syncClock(info, first.url);
  const serverNow = () => now() + offsetMs;

  const period = livePeriod(info, serverNow());
  const tracks = pickTracks(period, first.url);
  if (tracks.length === 0)
    throw new VirtualPlayerError(VirtualPlayerErrorCodes.MANIFEST, `${url}: no video or audio representation with a SegmentTemplate`);
  const nowPres = (serverNow() - info.availabilityStartTimeMs) / 1000;
  const delay = dashLiveDelay(s, {
    fragmentDuration: tracks[0]!.fragmentDuration,
    suggestedPresentationDelay: info.suggestedPresentationDelaySeconds,
    timeShiftBufferDepth: info.timeShiftBufferDepthSeconds,
  });
  // dash.js: startTime = DVR window end (now, for a template without timeline) − liveDelay.
  const startTime = Math.max(period.startSeconds, nowPres - delay);
  const playout = session.startPlayout({ tracks: tracks.map((t) => t.name), startPosition: startTime, maxHole: 0.1 }, delay);
  // dash.js getCurrentLiveLatency: now in presentation time minus the playhead.
  session.setEdgeDistance((t, p) => (t + offsetMs - info.availabilityStartTimeMs) / 1000 - p);
  let mpdTimer: NodeJS.Timeout | undefined;

  function parse(r: TimedResponse): MpdInfo {
    const hold = Number(header(r.headers, 'x-ethle-hold-seconds'));
    if (Number.isFinite(hold)) session.setHoldSeconds(hold);
    try {
      return parseMpd(r.body.toString('utf8'));
    } catch (e) {
      throw new VirtualPlayerError(VirtualPlayerErrorCodes.MANIFEST, `${r.url}: ${(e as Error).message}`);
    }
  }

  /** UTCTiming http-iso / http-xsdate, as dash.js TimeSyncController: offset = server time − the request's midpoint. */
  async function syncClock(mpd: MpdInfo, base: string): Promise<number> {
    const u = mpd.utcTiming.find((x) => /^urn:mpeg:dash:utc:http-(iso|xsdate):201[24]$/.test(x.schemeIdUri));
    if (!u) return 0;
    try {
      const r = await get(new URL(u.value, base).href, true);
      const server = Date.parse(r.body.toString('utf8').trim());
      if (Number.isNaN(server)) return 0;
      const offset = server - (r.requestStart + r.lastByte) / 2;
      session.setClock({ offsetMs: offset, precisionMs: (r.lastByte - r.requestStart) / 2, samples: 1 });
      return offset;
    } catch (e) {
      session.error((e as VirtualPlayerError).code ?? VirtualPlayerErrorCodes.HTTP, 'timeSyncError', (e as Error).message, false);
      return 0;
    }
  }

  function livePeriod(mpd: MpdInfo, serverMs: number): MpdPeriod {
    const t = (serverMs - mpd.availabilityStartTimeMs) / 1000;
    const started = mpd.periods.filter((p) => p.startSeconds <= t);
    const p = started.at(-1) ?? mpd.periods[0];
    if (!p) throw new VirtualPlayerError(VirtualPlayerErrorCodes.MANIFEST, `${url}: MPD without a Period`);
    return p;
  }

  function pickTracks(p: MpdPeriod, base: string): Track[] {
    const out: Track[] = [];
    for (const kind of ['video', 'audio'] as const) {
      // The first representation of the first adaptation set of each type (ABR is not modelled).
      const rep = p.representations.find(
        (r) => r.addressing === 'template' && (r.contentType === kind || r.mimeType?.startsWith(`${kind}/`)),
      );
      if (!rep?.template) continue;
      const t = rep.template;
      const d = t.duration !== undefined ? t.duration / t.timescale : (t.timeline?.[0]?.d ?? 0) / t.timescale;
      out.push({
        name: kind,
        rep,
        base: rep.baseUrls.reduce((b, x) => new URL(x, b).href, base),
        fragmentDuration: d,
        next: undefined,
        initLoaded: false,
        loading: false,
        timer: undefined,
        retryAt: 0,
      });
    }
    return out;
  }

  function available(t: Track): DashSegment[] {
    return availableSegments(info, serverNow()).filter((x) => x.representationId === t.rep.id && x.periodId === period.id);
  }

  /** dash.js BufferController.getBufferTarget / ScheduleController._shouldBuffer. */
  function shouldBuffer(t: Track, nowMs: number): boolean {
    if (playout.phase === 'loading') return true;
    const level = playout.bufferAhead(nowMs, t.name);
    if (t.name === 'audio' && tracks.some((x) => x.name === 'video')) {
      // _getBufferTargetForAudio: keep up with video (its level + 1, at least one fragment).
      return level < Math.max(playout.bufferAhead(nowMs, 'video') + 1, t.fragmentDuration);
    }
    const add = s.bufferTarget <= t.fragmentDuration ? 0 : t.fragmentDuration;
    return level + add < s.bufferTarget;
  }

  function schedule(t: Track, delayMs: number): void {
    clearTimeout(t.timer);
    if (!signal.aborted) t.timer = setTimeout(() => void step(t), delayMs);
  }

  async function step(t: Track): Promise<void> {
    if (t.loading || signal.aborted) return;
    const nowMs = now();
    session.tick();
    if (nowMs < t.retryAt || !shouldBuffer(t, nowMs)) return schedule(t, s.scheduleTimeoutMs);
    const list = available(t);
    if (t.next === undefined) t.next = list.find((x) => x.startSeconds <= startTime + 1e-6 && startTime < x.endSeconds)?.number;
    const seg = t.next === undefined ? undefined : list.find((x) => x.number === t.next);
    if (!seg) {
      // Not available yet (or the start segment is not out yet): dash.js re-checks on its timer.
      if (t.next === undefined && list.length > 0 && list.at(-1)!.endSeconds <= startTime) t.next = list.at(-1)!.number + 1;
      return schedule(t, s.scheduleTimeoutMs);
    }
    t.loading = true;
    try {
      if (!t.initLoaded) {
        const init = initializationUrl(t.rep);
        if (init) session.record('init', t.name, await get(new URL(init, t.base).href, false));
        t.initLoaded = true;
      }
      const r = await get(new URL(seg.url, t.base).href, false);
      const produced = header(r.headers, 'x-ethle-production-start');
      // Without the origin's header: availability start + media time, corrected for a declared hold (the edge shifts AST by it).
      const productionStartMs =
        produced !== undefined
          ? Date.parse(produced)
          : info.availabilityStartTimeMs + seg.startSeconds * 1000 - session.report().holdSeconds * 1000;
      session.record('media', t.name, r, {
        segment: { track: t.name, start: seg.startSeconds, end: seg.endSeconds, productionStartMs },
        rendition: t.rep.id,
      });
      t.next = seg.number + 1;
      // Append before the next request (VirtualPlayerConfig.appendMs).
      if (appendMs > 0) await sleep(appendMs, undefined, { signal });
      t.loading = false;
      schedule(t, 0);
    } catch (e) {
      t.loading = false;
      if (signal.aborted) return;
      if (!isVirtualPlayerError(e)) throw e;
      session.error(e.code, 'segmentLoadError', e.message, false);
      t.retryAt = now() + SEGMENT_RETRY_MS;
      schedule(t, s.scheduleTimeoutMs);
    }
  }

  function scheduleMpd(loadedAt: number): void {
    const mup = info.minimumUpdatePeriodSeconds;
    if (mup === undefined) return;
    // dash.js ManifestUpdater: max(minimumUpdatePeriod − latency of the last update, 1) s.
    const delayMs = Math.max(mup - (now() - loadedAt) / 1000, 1) * 1000;
    mpdTimer = setTimeout(() => void refresh(), delayMs);
  }

  async function refresh(): Promise<void> {
    const started = now();
    try {
      const r = await get(mpdUrl, true);
      session.record('manifest', '', r);
      info = parse(r);
      mpdUrl = r.url;
    } catch (e) {
      if (signal.aborted) return;
      session.error((e as VirtualPlayerError).code ?? VirtualPlayerErrorCodes.HTTP, 'manifestLoadError', (e as Error).message, false);
    }
    if (!signal.aborted) scheduleMpd(started);
  }

  scheduleMpd(first.requestStart);
  // The playout clock also runs between segment arrivals (stalls start on time).
  const tick = setInterval(() => session.tick(), 100);
  signal.addEventListener(
    'abort',
    () => {
      clearInterval(tick);
      clearTimeout(mpdTimer);
      for (const t of tracks) clearTimeout(t.timer);
    },
    { once: true },
  );
  for (const t of tracks) void step(t);
}
