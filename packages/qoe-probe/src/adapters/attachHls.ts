import { createEdgeLagEstimator } from '../latency/createEdgeLagEstimator.js';
import { hlsTrueLatency, programDateTimeAt } from '../latency/trueLatency.js';
import { fromPerf, timing, type Adapter, type AdapterContext, type AdapterSink } from './Adapter.js';
import { readHeader } from './readHeader.js';

/** The parts of an hls.js 1.x instance the probe uses (duck-typed: hls.js is never imported). */
export interface HlsLike {
  on(event: string, listener: (event: string, data: any) => void): void;
  off(event: string, listener: (event: string, data: any) => void): void;
  loadSource(url: string): void;
  media: HTMLMediaElement | null;
  levels?: { bitrate?: number }[];
  latency?: number;
  playingDate?: Date | null;
}

// Hls.Events values (stable string names in hls.js 1.x).
const MEDIA_ATTACHED = 'hlsMediaAttached';
const MANIFEST_LOADED = 'hlsManifestLoaded';
const LEVEL_LOADED = 'hlsLevelLoaded';
const FRAG_LOADED = 'hlsFragLoaded';
const FRAG_CHANGED = 'hlsFragChanged';
const LEVEL_SWITCHED = 'hlsLevelSwitched';
const ERROR = 'hlsError';

export const isHls = (t: any): t is HlsLike => typeof t?.on === 'function' && typeof t.loadSource === 'function' && 'media' in t;

interface Stats {
  loading: { start: number; first: number; end: number };
  loaded: number;
}

/** Edge lag this precise (ms, ±) replaces hls.js's own edge estimate. */
const LAG_USABLE_MS = 250;

export function attachHls(hls: HlsLike, sink: AdapterSink, ctx: AdapterContext, onMedia: () => void): Adapter {
  let live = false;
  let playingFrag: { start: number; programDateTime: number | null } | null = null;
  let level: number | null = null;
  let manifestUrl: string | null = null;
  // The newest segment hls.js saw: its sequence number and production end; segment duration (ms).
  let newest: { sn: number; end: number } | null = null;
  let segMs = 0;
  const lag = createEdgeLagEstimator();
  const observe = (send: number, recv: number, lastSn: number) => {
    const s = ctx.toServer(send);
    const r = ctx.toServer(recv);
    if (s === null || r === null || !newest) return;
    const end = newest.end + (lastSn - newest.sn) * segMs;
    lag.add({ sendMs: s, recvMs: r, lastEndMs: end, nextEndMs: end + segMs });
  };

  const response = (stats: Stats, nd: unknown) => {
    const l = stats.loading;
    sink.clock(fromPerf(l.start), fromPerf(l.first || l.end), readHeader(nd, 'date'));
  };
  const manifest = (url: string, stats: Stats, nd: unknown) => {
    const l = stats.loading;
    manifestUrl = url || manifestUrl;
    sink.segment(timing('manifest', url, '', fromPerf(l.start), fromPerf(l.first), fromPerf(l.end), stats.loaded, 0, ''));
    response(stats, nd);
    sink.hold(readHeader(nd, 'x-ethle-hold-seconds'));
  };

  const handlers: Record<string, (event: string, data: any) => void> = {
    [MEDIA_ATTACHED]: onMedia,
    [MANIFEST_LOADED]: (_e, d) => manifest(d.url, d.stats, d.networkDetails),
    [LEVEL_LOADED]: (_e, d) => {
      live = !!d.details?.live;
      const f = d.details?.fragments?.at(-1);
      if (live && f?.programDateTime) {
        newest = { sn: f.sn, end: f.programDateTime + f.duration * 1000 };
        segMs = d.details.targetduration * 1000;
        observe(fromPerf(d.stats.loading.start), fromPerf(d.stats.loading.first || d.stats.loading.end), f.sn);
      }
      // With a multivariant playlist the level load is a manifest of its own; without one hls.js
      // reports the same load as MANIFEST_LOADED too (withoutMultiVariant) — count it once.
      if (!d.withoutMultiVariant) manifest(d.details?.url ?? '', d.stats, d.networkDetails);
    },
    [FRAG_LOADED]: (_e, d) => {
      const f = d.frag;
      // LL-HLS: hls.js loads parts and reports each with the *fragment's* stats (its first part's
      // start and first byte) but the part's own response headers. Timed by the fragment, a later
      // part's Date would look like it was stamped before its request was sent, and the clock
      // estimate would come out too far ahead (true latency 0.2–0.45 s high in our LL runs).
      const p = d.part;
      const s: Stats = (p ?? f).stats;
      const l = s.loading;
      const init = f.sn === 'initSegment';
      sink.segment(
        timing(init ? 'init' : 'media', p?.url ?? f.url, f.type, fromPerf(l.start), fromPerf(l.first), fromPerf(l.end), s.loaded, init ? 0 : (p?.duration ?? f.duration), String(f.level)),
      );
      response(s, d.networkDetails);
    },
    [FRAG_CHANGED]: (_e, d) => {
      playingFrag = { start: d.frag.start, programDateTime: d.frag.programDateTime ?? null };
    },
    [LEVEL_SWITCHED]: (_e, d) => {
      if (d.level === level) return;
      level = d.level;
      sink.switched('main', String(d.level), hls.levels?.[d.level]?.bitrate ?? null);
    },
    [ERROR]: (_e, d) => {
      if (d.details === 'bufferStalledError') sink.hint('hls-buffer-stalled');
      else sink.error('hls', String(d.details), d.error?.message ?? String(d.details), !!d.fatal);
    },
  };
  for (const [e, fn] of Object.entries(handlers)) hls.on(e, fn);

  return {
    media: () => hls.media,
    timeUrl: () => manifestUrl,
    manifestLag() {
      const e = lag.estimate();
      return e && { ms: e.value, precisionMs: e.precision };
    },
    observe(send, recv, body) {
      const seq = /#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(body);
      const n = body.split('#EXTINF').length - 1;
      if (seq && n > 0) observe(send, recv, Number(seq[1]) + n - 1);
    },
    nextProbeAt(now) {
      const e = lag.estimate();
      const s = ctx.toServer(now);
      if (!e || !newest || s === null || e.precision <= Math.max(20, ctx.rtt())) return null;
      // Have the request reach the server just as the next segment is predicted to appear.
      return lag.nextProbeAt(s + 20, newest.end, segMs)! - (s - now) - ctx.rtt() / 2;
    },
    latency(serverNowMs) {
      if (!live) return { trueLatency: null, edgeDistance: null };
      const media = hls.media;
      let pdt = hls.playingDate?.getTime() ?? null;
      if (pdt === null && playingFrag?.programDateTime != null && media)
        pdt = programDateTimeAt(media.currentTime, playingFrag.start, playingFrag.programDateTime);
      const trueLatency = serverNowMs === null || pdt === null ? null : hlsTrueLatency(serverNowMs, pdt);
      const e = lag.estimate();
      // The manifest's edge advancing continuously: production now − L. Until L is known, hls.js's
      // own estimate (edge + time since *it* saw the playlist advance, off by its polling phase).
      const edgeDistance =
        trueLatency !== null && e && e.precision <= LAG_USABLE_MS
          ? trueLatency - e.value / 1000
          : typeof hls.latency === 'number' && hls.latency > 0
            ? hls.latency
            : null;
      return { trueLatency, edgeDistance };
    },
    destroy() {
      for (const [e, fn] of Object.entries(handlers)) hls.off(e, fn);
    },
  };
}
