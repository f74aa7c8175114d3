import { setTimeout as sleep } from 'node:timers/promises';
import { isMultivariantPlaylist, parseMediaPlaylist, parseMultivariantPlaylist, type HlsMediaPlaylist } from '@ethle/core';
import type { HlsSettings } from '../config/VirtualPlayerConfig.js';
import type { ConnectionPool } from '../net/createConnectionPool.js';
import { fetchTimed, header, type TimedResponse } from '../net/fetchTimed.js';
import type { Session } from '../report/createSession.js';
import { VirtualPlayerError, VirtualPlayerErrorCodes, isVirtualPlayerError } from '../VirtualPlayerError.js';
import { hlsLiveSyncPosition } from './hlsLiveSyncPosition.js';
import { hlsNextReload, hlsReloadInterval } from './hlsReloadInterval.js';

/** hls.js stream-controller `TICK_INTERVAL`: how often it re-checks whether to load a fragment, ms. */
const TICK_MS = 100;
/** hls.js `fragLoadPolicy.default`: timeouts retry at once up to 4 times, errors after 1 s doubling to 8 s, 6 times. */
const TIMEOUT_RETRIES = 4;
const ERROR_RETRY_MS = 1000;
const ERROR_RETRY_MAX_MS = 8000;

interface Fragment {
  msn: number;
  /** Interval on the player's timeline, s (0 = the first segment of the first playlist loaded). */
  start: number;
  duration: number;
  url: string;
  pdtMs: number | undefined;
  bitrateKbps: number | undefined;
}

/**
 * A live HLS receiver fetching like hls.js 1.7.4 with its defaults: one media playlist (the first
 * variant of a multivariant playlist: ABR is not modelled), start at `liveSyncPosition`, reload on
 * its cadence, one fragment at a time while the forward buffer is below the target. Resolves once
 * the first playlist is loaded and the start chosen; runs until `signal` aborts.
 */
export async function startHlsPlayer(
  url: string,
  s: HlsSettings,
  appendMs: number,
  pool: ConnectionPool,
  session: Session,
  signal: AbortSignal,
): Promise<void> {
  const now = session.now;
  const get = (u: string, keepBody: boolean, firstByteTimeoutMs?: number) =>
    fetchTimed(pool, u, { keepBody, signal, now, firstByteTimeoutMs });

  let first = await get(url, true);
  session.record('manifest', '', first);
  const text = first.body.toString('utf8');
  let mediaUrl = first.url;
  let variantBitrate: number | undefined;
  if (isMultivariantPlaylist(text)) {
    const mv = parseMultivariantPlaylist(text);
    const v = mv.variants[0];
    if (!v) throw new VirtualPlayerError(VirtualPlayerErrorCodes.MANIFEST, `${url}: multivariant playlist without variants`);
    variantBitrate = v.bandwidth;
    first = await get(new URL(v.uri, first.url).href, true);
    session.record('manifest', '', first);
    mediaUrl = first.url;
  }

  const frags = new Map<number, Fragment>();
  let details = parse(first);
  if (details.endList) throw new VirtualPlayerError(VirtualPlayerErrorCodes.MANIFEST, `${url}: not a live playlist (EXT-X-ENDLIST)`);
  let lastMsn = -1;
  let edge = 0;
  let totalDuration = 0;
  // hls.js LevelDetails.advancedDateTime: when the newest playlist that advanced was received.
  let advancedDateTime = 0;
  let requestScheduled = first.requestStart;
  merge(details, first);

  const startPosition = hlsLiveSyncPosition({
    edge,
    totalDuration,
    targetDuration: details.targetDuration,
    ageSeconds: (now() - advancedDateTime) / 1000,
    liveSyncDurationCount: s.liveSyncDurationCount,
  });
  const playout = session.startPlayout({ tracks: ['main'], startPosition, maxHole: 0.1 }, edge - startPosition);
  // hls.js `latency` getter: estimated live edge (edge + age) minus the playhead.
  session.setEdgeDistance((t, p) => edge + (t - advancedDateTime) / 1000 - p);
  let nextMsn = [...frags.values()].find((f) => f.start <= startPosition + 1e-6 && startPosition < f.start + f.duration)?.msn ?? lastMsn;
  let mapUrl = initUrl(details, first.url);
  let loadedMap: string | undefined;
  let loading = false;
  let retryAt = 0;
  let errorRetries = 0;
  let timeoutRetries = 0;
  let reloadTimer: NodeJS.Timeout | undefined;

  function parse(r: TimedResponse): HlsMediaPlaylist {
    try {
      return parseMediaPlaylist(r.body.toString('utf8'));
    } catch (e) {
      throw new VirtualPlayerError(VirtualPlayerErrorCodes.MANIFEST, `${r.url}: ${(e as Error).message}`);
    }
  }

  function initUrl(d: HlsMediaPlaylist, base: string): string | undefined {
    const line = d.segments.at(-1)?.mapLine;
    if (line === undefined) return undefined;
    const m = /URI="([^"]+)"/.exec(d.lines[line]!);
    return m ? new URL(m[1]!, base).href : undefined;
  }

  /** Adds the playlist's segments to the timeline; returns whether it advanced (a new last segment). */
  function merge(d: HlsMediaPlaylist, r: TimedResponse): boolean {
    const hold = Number(header(r.headers, 'x-ethle-hold-seconds'));
    if (Number.isFinite(hold)) session.setHoldSeconds(hold);
    const list = d.segments;
    if (list.length === 0) return false;
    // Anchor: a segment we already know, else (first load or a jump) continue from the known edge.
    const known = list.find((x) => frags.has(x.msn));
    let t = known ? frags.get(known.msn)!.start - list.slice(0, list.indexOf(known)).reduce((a, x) => a + x.duration, 0) : edge;
    for (const x of list) {
      if (!frags.has(x.msn))
        frags.set(x.msn, {
          msn: x.msn,
          start: t,
          duration: x.duration,
          url: new URL(x.uri, r.url).href,
          pdtMs: x.programDateTimeMs,
          bitrateKbps: x.bitrateKbps,
        });
      t = frags.get(x.msn)!.start + x.duration;
    }
    const newest = list.at(-1)!.msn;
    const firstListed = list[0]!.msn;
    for (const k of frags.keys()) if (k < firstListed - 8) frags.delete(k);
    const advanced = newest > lastMsn;
    if (advanced) {
      lastMsn = newest;
      edge = t;
      // hls.js playlistLoaded: advancedDateTime = now − (now − first byte of the load).
      advancedDateTime = r.firstByte;
    }
    totalDuration = list.reduce((a, x) => a + x.duration, 0);
    return advanced;
  }

  function scheduleReload(updated: boolean): void {
    const t = now();
    const position = playout.position(t);
    const interval = hlsReloadInterval({
      targetDuration: details.targetDuration,
      lastSegmentDuration: details.segments.at(-1)?.duration ?? 0,
      updated,
      distanceToLiveEdgeMs: (edge - position) * 1000,
    });
    requestScheduled = hlsNextReload(requestScheduled, interval, t);
    reloadTimer = setTimeout(() => void reload(), Math.max(0, requestScheduled - t));
  }

  async function reload(): Promise<void> {
    let updated = false;
    try {
      const r = await get(mediaUrl, true);
      session.record('manifest', '', r);
      details = parse(r);
      updated = merge(details, r);
      mapUrl = initUrl(details, r.url) ?? mapUrl;
    } catch (e) {
      if (signal.aborted) return;
      const err = e as VirtualPlayerError;
      session.error(err.code ?? VirtualPlayerErrorCodes.HTTP, 'levelLoadError', err.message, false);
    }
    if (signal.aborted) return;
    scheduleReload(updated);
    maybeLoad();
  }

  function bufferTarget(f: Fragment): number {
    // hls.js getMaxBufferLength: max(8 × maxBufferSize / bitrate, maxBufferLength), at most maxMaxBufferLength.
    const bitrate = variantBitrate ?? (f.bitrateKbps === undefined ? undefined : f.bitrateKbps * 1000);
    const len = bitrate ? Math.max((8 * s.maxBufferSize) / bitrate, s.maxBufferLength) : s.maxBufferLength;
    return Math.min(len, s.maxMaxBufferLength);
  }

  function maybeLoad(): void {
    if (loading || signal.aborted) return;
    const t = now();
    if (t < retryAt) return;
    const f = frags.get(nextMsn);
    if (!f) return; // not listed yet: the next playlist reload brings it
    if (playout.phase !== 'loading' && playout.bufferAhead(t) >= bufferTarget(f)) return;
    loading = true;
    void loadFragment(f).finally(() => {
      loading = false;
      if (!signal.aborted) maybeLoad();
    });
  }

  async function loadFragment(f: Fragment): Promise<void> {
    try {
      // hls.js loads the init segment (EXT-X-MAP) before the first fragment that needs it.
      if (mapUrl && mapUrl !== loadedMap) {
        const r = await get(mapUrl, false, s.fragMaxTimeToFirstByteMs);
        session.record('init', 'main', r);
        loadedMap = mapUrl;
      }
      const r = await get(f.url, false, s.fragMaxTimeToFirstByteMs);
      const produced = header(r.headers, 'x-ethle-production-start');
      const productionStartMs = produced === undefined ? f.pdtMs : Date.parse(produced);
      session.record('media', 'main', r, {
        segment: { track: 'main', start: f.start, end: f.start + f.duration, productionStartMs },
        rendition: '0',
      });
      nextMsn = f.msn + 1;
      errorRetries = 0;
      timeoutRetries = 0;
      // Parse and append before the next tick can load another (VirtualPlayerConfig.appendMs).
      if (appendMs > 0) await sleep(appendMs, undefined, { signal });
    } catch (e) {
      if (signal.aborted) return;
      if (!isVirtualPlayerError(e)) throw e;
      const timeout = e.details.timeout === true;
      session.error(e.code, timeout ? 'fragLoadTimeOut' : 'fragLoadError', e.message, false);
      if (timeout && timeoutRetries < TIMEOUT_RETRIES) timeoutRetries += 1;
      else {
        retryAt = now() + Math.min(ERROR_RETRY_MS * 2 ** errorRetries, ERROR_RETRY_MAX_MS);
        errorRetries += 1;
      }
    }
  }

  scheduleReload(true);
  const tick = setInterval(() => {
    session.tick();
    maybeLoad();
  }, TICK_MS);
  signal.addEventListener(
    'abort',
    () => {
      clearInterval(tick);
      clearTimeout(reloadTimer);
    },
    { once: true },
  );
  maybeLoad();
}
