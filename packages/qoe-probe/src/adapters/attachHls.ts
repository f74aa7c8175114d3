import { createPlaylistLag } from '../latency/createPlaylistLag.js';
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

export function attachHls(hls: HlsLike, sink: AdapterSink, ctx: AdapterContext, onMedia: () => void): Adapter {
  let live = false;
  let playingFrag: { start: number; programDateTime: number | null } | null = null;
  let level: number | null = null;
  let manifestUrl: string | null = null;
  const lag = createPlaylistLag(ctx);

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
        const l = d.stats.loading;
        lag.loaded(
          { sn: f.sn, endMs: f.programDateTime + f.duration * 1000, segMs: d.details.targetduration * 1000 },
          fromPerf(l.start),
          fromPerf(l.first || l.end),
        );
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
        timing(
          init ? 'init' : 'media',
          p?.url ?? f.url,
          f.type,
          fromPerf(l.start),
          fromPerf(l.first),
          fromPerf(l.end),
          s.loaded,
          init ? 0 : (p?.duration ?? f.duration),
          String(f.level),
        ),
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
    manifestLag: lag.manifestLag,
    observe: lag.observe,
    nextProbeAt: lag.nextProbeAt,
    latency(serverNowMs) {
      if (!live) return { trueLatency: null, edgeDistance: null };
      const media = hls.media;
      let pdt = hls.playingDate?.getTime() ?? null;
      if (pdt === null && playingFrag?.programDateTime != null && media)
        pdt = programDateTimeAt(media.currentTime, playingFrag.start, playingFrag.programDateTime);
      const trueLatency = serverNowMs === null || pdt === null ? null : hlsTrueLatency(serverNowMs, pdt);
      return {
        trueLatency,
        edgeDistance: lag.edgeDistance(trueLatency, typeof hls.latency === 'number' && hls.latency > 0 ? hls.latency : null),
      };
    },
    destroy() {
      for (const [e, fn] of Object.entries(handlers)) hls.off(e, fn);
    },
  };
}
