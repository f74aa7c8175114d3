import { createPlaylistLag } from '../latency/createPlaylistLag.js';
import { parsePlaylistEdge } from '../latency/parsePlaylistEdge.js';
import { dashTrueLatency, hlsTrueLatency } from '../latency/trueLatency.js';
import { clientNow, timing, type Adapter, type AdapterContext, type AdapterSink } from './Adapter.js';
import { readHeader } from './readHeader.js';

/** The parts of a Shaka Player 5.x `shaka.Player` the probe uses (duck-typed: Shaka is never imported). */
export interface ShakaLike {
  addEventListener(type: string, listener: (e: any) => void): void;
  removeEventListener(type: string, listener: (e: any) => void): void;
  load(uri: string, ...rest: unknown[]): Promise<unknown>;
  getMediaElement(): HTMLMediaElement | null;
  getNetworkingEngine(): unknown;
  isLive?(): boolean;
  getManifestType?(): string | null;
  getPlayheadTimeAsDate?(): Date | null;
}

export const isShaka = (t: any): t is ShakaLike =>
  typeof t?.addEventListener === 'function' &&
  typeof t.load === 'function' &&
  typeof t.getNetworkingEngine === 'function' &&
  typeof t.getMediaElement === 'function';

// shaka.net.NetworkingEngine.RequestType / AdvancedRequestType values (stable in Shaka 4.x–5.x).
const MANIFEST = 0;
const SEGMENT = 1;
const INIT_SEGMENT = 0;
const MEDIA_PLAYLIST = 2;
const MASTER_PLAYLIST = 3;

/**
 * Shaka Player: every download through its networking engine ('downloadcompleted': request
 * start and time to first byte from Shaka's own loader, the response's headers and body), its
 * 'buffering', 'adaptation' and 'error' events, and the playhead's wall-clock time
 * (getPlayheadTimeAsDate: HLS program date-time, DASH availabilityStartTime + position).
 */
export function attachShaka(player: ShakaLike, sink: AdapterSink, ctx: AdapterContext): Adapter {
  let manifestUrl: string | null = null;
  const lag = createPlaylistLag(ctx);
  const handlers: Record<string, (e: any) => void> = {
    downloadcompleted(e) {
      const req = e.request ?? {};
      const res = e.response ?? {};
      const type = e.context?.type;
      // Shaka times requests with Date.now(); move them onto the probe's monotonic clock.
      const now = clientNow();
      const toClient = now - Date.now();
      const start = Math.min(now, (req.requestStartTime ?? now - toClient) + toClient);
      const first = Math.min(now, Math.max(start, start + (req.timeToFirstByte ?? now - start)));
      const url = String(res.uri ?? '');
      const bytes = res.data?.byteLength ?? 0;
      sink.clock(start, first, readHeader(res.headers, 'date'));
      if (e.requestType === MANIFEST) {
        sink.hold(readHeader(res.headers, 'x-ethle-hold-seconds'));
        sink.segment(timing('manifest', url, '', start, first, now, bytes, 0, ''));
        // Probe GETs go to the MPD or the media playlist, not to a multivariant playlist.
        if (type !== MASTER_PLAYLIST || manifestUrl === null) manifestUrl = url;
        if (type === MEDIA_PLAYLIST) {
          const edge = parsePlaylistEdge(new TextDecoder().decode(res.data));
          if (edge) lag.loaded(edge, start, first);
        }
      } else if (e.requestType === SEGMENT) {
        const ref = e.context?.segment;
        const init = type === INIT_SEGMENT;
        const stream = e.context?.stream ?? {};
        sink.segment(
          timing(
            init ? 'init' : 'media',
            url,
            String(stream.type ?? ''),
            start,
            first,
            now,
            bytes,
            init || !ref ? 0 : ref.endTime - ref.startTime,
            String(stream.id ?? ''),
          ),
        );
      }
    },
    buffering(e) {
      if (e.buffering) sink.hint('shaka-buffering');
    },
    adaptation(e) {
      const t = e.newTrack;
      if (t) sink.switched('main', String(t.id), t.bandwidth ?? null);
    },
    error(e) {
      const d = e.detail ?? {};
      // Severity 2 is CRITICAL: Shaka stopped; 1 (RECOVERABLE) it retries.
      sink.error('shaka', String(d.code ?? ''), d.message ?? `Shaka error ${d.code}`, d.severity === 2);
    },
  };
  for (const [e, fn] of Object.entries(handlers)) player.addEventListener(e, fn);

  return {
    media: () => player.getMediaElement(),
    timeUrl: () => manifestUrl,
    manifestLag: lag.manifestLag,
    observe: lag.observe,
    nextProbeAt: lag.nextProbeAt,
    latency(serverNowMs, holdSeconds) {
      const at = player.isLive?.() ? player.getPlayheadTimeAsDate?.()?.getTime() : undefined;
      if (!(at! > 0)) return { trueLatency: null, edgeDistance: null };
      if (player.getManifestType?.() === 'HLS') {
        const trueLatency = serverNowMs === null ? null : hlsTrueLatency(serverNowMs, at!);
        return { trueLatency, edgeDistance: lag.edgeDistance(trueLatency, null) };
      }
      // DASH: the playhead's date is availabilityStartTime + its position, and an ETHLE edge moves
      // AST later by the hold it declares, as for dash.js.
      if (serverNowMs === null) return { trueLatency: null, edgeDistance: null };
      return { trueLatency: dashTrueLatency(serverNowMs, at! / 1000, holdSeconds), edgeDistance: (serverNowMs - at!) / 1000 };
    },
    destroy() {
      for (const [e, fn] of Object.entries(handlers)) player.removeEventListener(e, fn);
    },
  };
}
