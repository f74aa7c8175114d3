import { randomUUID } from 'node:crypto';
import { createEmitter, type Emitter } from '../events/VirtualPlayerEvents.js';
import {
  createPlayout,
  type BufferedSegment,
  type Playout,
  type PlayoutEvent,
  type PlayoutOptions,
  type PlayoutStall,
} from '../playout/createPlayout.js';
import type { TimedResponse } from '../net/fetchTimed.js';
import {
  summarize,
  type ErrorEntry,
  type LatencySample,
  type SegmentTiming,
  type VirtualReport,
  type VirtualSegmentTiming,
} from './VirtualReport.js';

/**
 * What both players share: the playout, the event emitter and the report. The players own
 * sockets and timers; this only records and turns playout changes into events.
 */
export interface Session {
  readonly emitter: Emitter;
  readonly loadStartMs: number;
  readonly playout: Playout | undefined;
  now(): number;
  startPlayout(o: Omit<PlayoutOptions, 'loadStartMs'>, offsetSeconds: number): Playout;
  /** A finished request: recorded, and for media appended to the playout. */
  record(kind: SegmentTiming['kind'], track: string, r: TimedResponse, media?: { segment: BufferedSegment; rendition: string }): void;
  error(code: string, detail: string, message: string, fatal: boolean): void;
  setHoldSeconds(s: number): void;
  setClock(c: VirtualReport['clock']): void;
  /** The player's own distance to the live edge at a playhead (hls.js `latency`, dash.js live latency). */
  setEdgeDistance(f: (nowMs: number, position: number) => number | null): void;
  /** Advances the playout to now and takes a latency sample when one is due. */
  tick(): void;
  report(): VirtualReport;
}

/**
 * A stall counts, as in the QoE probe, only once the playhead has not moved for `stallThresholdMs`
 * (the probe's `stallThresholdMs`, default 1000): shorter ones are tallied as `shortStalls`, so a
 * virtual run's stall count means what a Chromium run's means.
 */
export function createSession(
  target: 'hls' | 'dash',
  o: { sampleIntervalMs: number; maxEntries: number; stallThresholdMs: number; appendMs?: number; now?: () => number },
): Session {
  const now = o.now ?? Date.now;
  const emitter = createEmitter(now);
  const loadStartMs = now();
  const session = randomUUID();
  let playout: Playout | undefined;
  let start: VirtualReport['start'] = null;
  let startupMs: number | null = null;
  const stalls: PlayoutStall[] = [];
  let stallCount = 0;
  let stallTotalMs = 0;
  const shortStalls = { count: 0, totalMs: 0 };
  /** The playhead ran dry here; published as stallStart once it has stayed so for the threshold. */
  let pending: { start: number; position: number; published: boolean } | undefined;
  const latency: number[] = [];
  const edge: number[] = [];
  const series: LatencySample[] = [];
  const segments: VirtualSegmentTiming[] = [];
  let segmentCount = 0;
  let segmentBytes = 0;
  const errors: ErrorEntry[] = [];
  let holdSeconds = 0;
  let clock: VirtualReport['clock'] = null;
  let edgeDistance: (nowMs: number, position: number) => number | null = () => null;
  let lastSample = 0;

  const push = <T>(list: T[], x: T) => {
    list.push(x);
    if (list.length > o.maxEntries) list.splice(0, list.length - o.maxEntries);
  };

  function publish(events: PlayoutEvent[]): void {
    for (const e of events) {
      if (e.type === 'startup') {
        startupMs = e.startupMs;
        emitter.emit('startup', { at: e.at, startupMs: e.startupMs });
      } else if (e.type === 'stallStart') pending = { start: e.start, position: e.position, published: false };
      else {
        const ran = pending;
        pending = undefined;
        if (e.stall.durationMs < o.stallThresholdMs) {
          shortStalls.count += 1;
          shortStalls.totalMs += e.stall.durationMs;
          continue;
        }
        // Resumed between two ticks after the threshold: announce it before its end, as the probe would.
        if (!ran?.published) emitter.emit('stallStart', { start: e.stall.start, position: ran?.position ?? Number.NaN });
        stallCount += 1;
        stallTotalMs += e.stall.durationMs;
        push(stalls, e.stall);
        emitter.emit('stallEnd', e.stall);
      }
    }
  }

  function sample(t: number): void {
    if (!playout || playout.phase === 'loading') return;
    const p = playout.position(t);
    const produced = playout.productionTimeAt(p);
    const trueLatency = produced === undefined ? null : (t - produced) / 1000;
    const s: LatencySample = { at: t, trueLatency, edgeDistance: edgeDistance(t, p), holdSeconds };
    if (trueLatency !== null) push(latency, trueLatency);
    if (s.edgeDistance !== null) push(edge, s.edgeDistance);
    push(series, s);
    emitter.emit('latency', s);
  }

  return {
    emitter,
    loadStartMs,
    get playout() {
      return playout;
    },
    now,
    startPlayout(po, offsetSeconds) {
      playout = createPlayout({ ...po, loadStartMs });
      start = { position: po.startPosition, offsetSeconds };
      return playout;
    },
    record(kind, track, r, media) {
      const ms = Math.max(1, r.lastByte - r.requestStart);
      const t: VirtualSegmentTiming = {
        kind,
        url: r.url,
        track,
        requestStart: r.requestStart,
        firstByte: r.firstByte,
        lastByte: r.lastByte,
        bytes: r.bytes,
        throughputBps: (r.bytes * 8 * 1000) / ms,
        transferBps: (r.bytes * 8 * 1000) / Math.max(1, r.lastByte - r.firstByte),
        duration: media ? media.segment.end - media.segment.start : 0,
        rendition: media?.rendition ?? '',
        connection: r.previousRequests === 0 ? 'new' : 'reused',
        connectionId: r.connection,
        previousRequests: r.previousRequests,
      };
      segmentCount += 1;
      segmentBytes += r.bytes;
      push(segments, t);
      emitter.emit('segment', t);
      // Appended now (the last byte has just arrived): the playout clock only moves forward.
      if (media && playout) publish(playout.append(media.segment, now()));
    },
    error(code, detail, message, fatal) {
      const e: ErrorEntry = { at: now(), code, source: target, detail, message, fatal };
      push(errors, e);
      emitter.emit('error', e);
    },
    setHoldSeconds(s) {
      holdSeconds = s;
    },
    setClock(c) {
      clock = c;
    },
    setEdgeDistance(f) {
      edgeDistance = f;
    },
    tick() {
      if (!playout) return;
      const t = now();
      publish(playout.advance(t));
      if (pending && !pending.published && t - pending.start >= o.stallThresholdMs) {
        pending.published = true;
        emitter.emit('stallStart', { start: pending.start, position: pending.position });
      }
      if (t - lastSample >= o.sampleIntervalMs) {
        lastSample = t;
        sample(t);
      }
    },
    report() {
      return {
        target,
        session,
        startupMs,
        stalls: { count: stallCount, totalMs: stallTotalMs, list: [...stalls] },
        shortStalls: { ...shortStalls },
        latency: summarize(latency),
        edgeDistance: summarize(edge),
        holdSeconds,
        latencySeries: [...series],
        segments: { count: segmentCount, bytes: segmentBytes, list: [...segments] },
        switches: [],
        errors: [...errors],
        clock,
        manifestLag: null,
        receiver: 'virtual',
        appendMs: o.appendMs ?? 0,
        start,
      };
    },
  };
}
