import { dashTrueLatency } from '../latency/trueLatency.js';
import { clientNow, fromPerf, timing, type Adapter, type AdapterSink } from './Adapter.js';
import { readHeader } from './readHeader.js';

/** The parts of a dash.js v5 MediaPlayer the probe uses (duck-typed: dash.js is never imported). */
export interface DashLike {
  on(type: string, listener: (e: any) => void, scope?: object): void;
  off(type: string, listener: (e: any) => void, scope?: object): void;
  attachSource(urlOrManifest: unknown, startTime?: unknown): void;
  getVideoElement(): HTMLMediaElement;
  isDynamic?(): boolean;
  timeAsUTC?(): number;
  getCurrentLiveLatency?(): number;
  addResponseInterceptor?(fn: (r: any) => Promise<any>): void;
  removeResponseInterceptor?(fn: (r: any) => Promise<any>): void;
}

// MediaPlayer.events values (dash.js v5). BUFFER_EMPTY ('bufferStalled') is the rebuffer signal;
// PLAYBACK_STALLED is the media element's network `stalled` and is deliberately not used.
const FRAGMENT_LOADING_COMPLETED = 'fragmentLoadingCompleted';
const QUALITY_CHANGE_RENDERED = 'qualityChangeRendered';
const BUFFER_EMPTY = 'bufferStalled';
const ERROR = 'error';

export const isDash = (t: any): t is DashLike =>
  typeof t?.on === 'function' && typeof t.attachSource === 'function' && typeof t.getVideoElement === 'function';

const ms = (d: unknown): number | null => (d instanceof Date ? d.getTime() : typeof d === 'number' ? d : null);

export function attachDash(player: DashLike, sink: AdapterSink): Adapter {
  let mpdUrl: string | null = null;
  /**
   * Every response passes here (MPD, segments, UTCTiming): its Date header syncs the clock, and an
   * MPD's X-Ethle-Hold-Seconds says how far an ETHLE edge shifted availabilityStartTime.
   * The request's start is dash.js's resourceTiming.startTime: a Resource Timing entry's (ms since
   * timeOrigin) or its own Date.now() (epoch ms) — for a URL fetched again (the MPD) the entry it
   * picks is the first fetch's, earlier still, which only widens the clock's interval. The
   * response is timed here, on arrival: dash.js's firstByteDate can read earlier than the request
   * itself, and a receive time too early would narrow the interval past the truth.
   */
  const interceptor = async (r: any): Promise<any> => {
    try {
      const now = clientNow();
      const req = r?.request?.customData?.request;
      const t = r?.resourceTiming?.startTime;
      const start = Math.min(now, typeof t !== 'number' ? now : t > 1e11 ? t + now - Date.now() : fromPerf(t));
      const first = now;
      sink.clock(start, first, readHeader(r?.headers, 'date'));
      if (req?.type === 'MPD') {
        mpdUrl = String(r.url ?? req.url);
        sink.hold(readHeader(r?.headers, 'x-ethle-hold-seconds'));
        const bytes = typeof r.data === 'string' ? r.data.length : (r.resourceTiming?.encodedBodySize ?? 0);
        sink.segment(timing('manifest', String(r.url ?? req.url ?? ''), '', start, first, now, bytes, 0, ''));
      }
    } catch {
      // Observing must never break loading: a response the probe cannot read is simply not measured.
    }
    return r;
  };

  const handlers: Record<string, (e: any) => void> = {
    [FRAGMENT_LOADING_COMPLETED]: (e) => {
      const q = e.request ?? {};
      const start = ms(q.startDate);
      const end = ms(q.endDate) ?? ms(q.requestEndDate);
      if (start === null || end === null) return;
      const init = q.type === 'InitializationSegment';
      const bytes = q.bytesLoaded || e.response?.byteLength || 0;
      sink.segment(
        timing(
          init ? 'init' : 'media',
          String(q.url),
          String(q.mediaType),
          start,
          ms(q.firstByteDate) ?? start,
          end,
          bytes,
          init ? 0 : q.duration || 0,
          String(q.representation?.id ?? q.representationId ?? ''),
        ),
      );
    },
    [QUALITY_CHANGE_RENDERED]: (e) => {
      const r = e.newRepresentation;
      if (r) sink.switched(String(e.mediaType), String(r.id), r.bandwidth ?? null);
    },
    [BUFFER_EMPTY]: () => sink.hint('dash-buffer-empty'),
    [ERROR]: (e) => {
      const err = e.error ?? {};
      sink.error('dash', String(err.code ?? ''), String(err.message ?? 'dash.js error'), true);
    },
  };
  for (const [e, fn] of Object.entries(handlers)) player.on(e, fn);
  player.addResponseInterceptor?.(interceptor);

  return {
    timeUrl: () => mpdUrl,
    media() {
      try {
        return player.getVideoElement() ?? null;
      } catch {
        return null; // dash.js throws until attachView(); the heartbeat asks again
      }
    },
    latency(serverNowMs, holdSeconds) {
      try {
        if (!player.isDynamic?.()) return { trueLatency: null, edgeDistance: null };
        const utc = player.timeAsUTC?.() ?? NaN;
        const edge = player.getCurrentLiveLatency?.() ?? NaN;
        return {
          trueLatency: serverNowMs === null || !(utc > 0) ? null : dashTrueLatency(serverNowMs, utc, holdSeconds),
          edgeDistance: Number.isFinite(edge) && edge > 0 ? edge : null,
        };
      } catch {
        return { trueLatency: null, edgeDistance: null }; // playback not initialised yet
      }
    },
    destroy() {
      for (const [e, fn] of Object.entries(handlers)) player.off(e, fn);
      player.removeResponseInterceptor?.(interceptor);
    },
  };
}
