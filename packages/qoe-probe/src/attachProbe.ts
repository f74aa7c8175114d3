import { clientNow, fromPerf, type Adapter, type AdapterSink } from './adapters/Adapter.js';
import { attachDash, isDash } from './adapters/attachDash.js';
import { attachHls, isHls } from './adapters/attachHls.js';
import { attachShaka, isShaka } from './adapters/attachShaka.js';
import { createBeacon, type Beacon } from './beacon/createBeacon.js';
import { createClockOffsetEstimator, parseHttpDate } from './clock/createClockOffsetEstimator.js';
import { createConnectionObserver } from './connection/createConnectionObserver.js';
import { createEmitter } from './createEmitter.js';
import type { ErrorData, EventName, QoeEventMap, QoeListener } from './Events.js';
import { resolveOptions, type ProbeOptions } from './options.js';
import { ErrorCodes, ProbeError } from './ProbeError.js';
import { beaconReport, buildReport, emptyReportState, pushBounded, type QoeReport } from './report.js';
import { createStallDetector, type StallOutput } from './stall/createStallDetector.js';

export interface QoeProbe {
  on<E extends EventName>(event: E, listener: QoeListener<E>): void;
  off<E extends EventName>(event: E, listener: QoeListener<E>): void;
  /** Restart the startup clock (e.g. when the user presses play); ignored after the first frame. */
  markLoadStart(): void;
  report(): QoeReport;
  /** Remove every listener, timer and interceptor; sends the last beacon. Idempotent. */
  destroy(): void;
}

const isMedia = (t: any): t is HTMLMediaElement =>
  typeof t?.addEventListener === 'function' && typeof t.currentTime === 'number' && typeof t.readyState === 'number' && 'paused' in t;

const MEDIA_EVENTS = ['waiting', 'error', 'playing', 'pause', 'seeking', 'seeked'] as const;

/**
 * Attach a QoE probe to an hls.js instance, a dash.js MediaPlayer, a Shaka Player or a media element.
 * Startup is measured from this call: attach right before loadSource()/attachSource()/play(), or
 * call markLoadStart() at the user's play request.
 */
export function attachProbe(target: unknown, options?: ProbeOptions): QoeProbe {
  const o = resolveOptions(options);
  const kind = isHls(target) ? 'hls' : isDash(target) ? 'dash' : isShaka(target) ? 'shaka' : isMedia(target) ? 'media' : null;
  if (!kind) throw new ProbeError(ErrorCodes.BAD_TARGET, 'expected an hls.js, dash.js or Shaka player, or a media element');

  const state = emptyReportState(kind, o.sessionId);
  const max = o.maxEntries;
  const recordError = (e: ErrorData) => pushBounded(state.errors, e, max);
  const emitter = createEmitter(clientNow, recordError);
  let beacon: Beacon | null = null;
  const publish = <E extends EventName>(event: E, data: QoeEventMap[E]) => {
    beacon?.push(event, data);
    emitter.emit(event, data);
  };
  const detector = createStallDetector({ thresholdMs: o.stallThresholdMs, loadStart: clientNow() });
  const clock = createClockOffsetEstimator();
  let destroyed = false;
  let lastLatencyAt = 0;
  const connections = createConnectionObserver();

  const error = (source: string, detail: string, message: string, fatal: boolean) => {
    const code = source === 'media' ? ErrorCodes.MEDIA_ERROR : ErrorCodes.PLAYER_ERROR;
    const e: ErrorData = { at: clientNow(), code, source, detail, message, fatal };
    recordError(e);
    publish('error', e);
  };

  const sink: AdapterSink = {
    segment(s) {
      state.segmentCount++;
      state.segmentBytes += s.bytes;
      if (s.kind !== 'manifest') connections?.label(s);
      pushBounded(state.segments, s, max);
      publish('segment', s);
    },
    clock(sendMs, recvMs, dateHeader) {
      const serverMs = parseHttpDate(dateHeader);
      if (serverMs === null || !clock.add({ sendMs, recvMs, serverMs, resolutionMs: 1000 })) return;
      minRtt = Math.min(minRtt, recvMs - sendMs);
      scheduleClockProbe();
      const e = clock.estimate()!;
      const c = state.clock;
      if (!c || Math.abs(c.offsetMs - e.offsetMs) >= 1 || Math.abs(c.precisionMs - e.precisionMs) >= 1) {
        state.clock = { offsetMs: e.offsetMs, precisionMs: e.precisionMs, samples: e.samples };
        publish('clock', state.clock);
      }
    },
    hold(header) {
      const v = header === null ? NaN : Number(header);
      state.holdSeconds = Number.isFinite(v) && v >= 0 ? v : 0;
    },
    switched(track, to, bitrate) {
      const prev = [...state.switches].reverse().find((s) => s.track === track);
      const s = { at: clientNow(), track, from: prev?.to ?? null, to, bitrate };
      pushBounded(state.switches, s, max);
      publish('switch', s);
    },
    error,
    hint(signal) {
      detector.hint(signal, clientNow());
    },
  };

  // Clock probes: a few GETs of the manifest timed by the estimator to bisect the server's second.
  let probesUsed = 0;
  const attachedAt = clientNow();
  let probeTimer: ReturnType<typeof setTimeout> | undefined;
  let minRtt = Infinity;
  // The round trips of the probe's last 3 GETs (network stack times), to aim the next one: the
  // smallest of all responses is no guide once the server's or the page's load has changed.
  let rtts: number[] = [];
  const abort = new AbortController();
  // Clock first (bisecting the Date second), then the adapter's own timing (HLS: when the
  // playlist's edge advances).
  function scheduleClockProbe() {
    const url = adapter?.timeUrl();
    const e = clock.estimate();
    const now = clientNow();
    // The budget grows by one GET a minute: a long session re-bisects what the clocks' possible
    // drift has widened since.
    const budget = o.syncProbes && o.syncProbes + Math.floor((now - attachedAt) / 60_000);
    if (probeTimer || probesUsed >= budget || destroyed || !url || !e) return;
    // While the adapter has timing of its own to measure (HLS: when the playlist's edge advances),
    // the clock yields to it at most 2/3 of the budget in, or once its bound is within the round
    // trip (bisection bottoms out near RTT/2). Otherwise clock GETs go on, within the budget, until
    // ±10 ms: a round trip measured under load must not stop them for good (only GETs measure it
    // again; dash.js's low-latency segments, timed to their last byte, never do).
    const own = adapter.nextProbeAt?.(now) ?? null;
    const rtt = rtts.length > 0 ? Math.min(...rtts) : minRtt;
    const clockTurn = e.precisionMs > 10 && (own === null || (e.precisionMs > rtt && probesUsed < Math.ceil((budget * 2) / 3)));
    const at = clockTurn ? clock.nextProbeAt(now + 20, rtt) : own;
    if (at === null) return;
    probeTimer = setTimeout(
      async () => {
        // Fired late (a busy main thread): the GET lands that much after the instant it was timed
        // for. A clock GET still cuts the bound while that is under half of it (it then leaves at
        // most 3/4); the adapter's own timing wants 10 ms. Later than that, try again at the next
        // instant without spending a GET. (10 ms for the clock too starved it on a page whose
        // timers are late at nearly every second: no GET went out and the bound never settled.)
        if (clientNow() - at > Math.max(10, clockTurn ? e.precisionMs / 2 : 0)) {
          probeTimer = undefined;
          return scheduleClockProbe();
        }
        // A fragment is not sent but names this request's Resource Timing entry.
        const tag = `${url.split('#')[0]}#ethle-sync-${++probesUsed}`;
        let send = clientNow();
        try {
          const res = await fetch(tag, { cache: 'no-store', signal: abort.signal });
          let recv = clientNow();
          const body = await res.text();
          // The network stack's send and first byte, when its entry comes (within 0.5 s): on a
          // loaded page the main thread stamps both late, which widens the interval from below.
          for (let i = 0, t; i < 10 && !destroyed; i++) {
            if ((t = connections?.sent(tag))) {
              send = Math.max(send, fromPerf(t[0]));
              recv = Math.min(recv, fromPerf(t[1]));
              break;
            }
            await new Promise((r) => setTimeout(r, 50));
          }
          probeTimer = undefined;
          rtts = [...rtts.slice(-2), recv - send];
          sink.clock(send, recv, res.headers.get('date'));
          adapter.observe?.(send, recv, body);
          scheduleClockProbe();
        } catch {
          probeTimer = undefined; // a failed probe only leaves the estimates as precise as they were
        }
      },
      Math.max(0, at - clientNow()),
    );
  }
  const ctx = {
    toServer(t: number, bound: -1 | 0 | 1 = 0) {
      const c = clock.estimate();
      return c && c.precisionMs <= 50 ? t + c.offsetMs + bound * c.precisionMs : null;
    },
    rtt: () => (Number.isFinite(minRtt) ? minRtt : 0),
  };

  let media: HTMLMediaElement | null = null;
  let frameCb = 0;
  const onMediaEvent = (ev: Event) => {
    if (ev.type === 'waiting') sink.hint('waiting');
    else if (ev.type === 'error') {
      const err = (ev.target as HTMLMediaElement).error;
      error('media', String(err?.code ?? ''), err?.message || 'media error', true);
    } else tick(); // a state change: sample it now rather than at the next heartbeat
  };
  const bind = (el: HTMLMediaElement | null) => {
    if (el === media) return;
    if (media) for (const t of MEDIA_EVENTS) media.removeEventListener(t, onMediaEvent);
    cancelFrames();
    media = el;
    if (!el) return;
    for (const t of MEDIA_EVENTS) el.addEventListener(t, onMediaEvent);
    watchFrames();
  };
  // Until the first frame, requestVideoFrameCallback samples at each presented frame, so startup is
  // timed to the frame rather than to the heartbeat.
  const watchFrames = () => {
    const v = media as HTMLVideoElement | null;
    if (!v?.requestVideoFrameCallback || detector.phase !== 'loading') return;
    frameCb = v.requestVideoFrameCallback((_now, meta) => {
      frameCb = 0;
      feed(meta.mediaTime);
      watchFrames();
    });
  };
  const cancelFrames = () => {
    if (frameCb) (media as HTMLVideoElement | null)?.cancelVideoFrameCallback?.(frameCb);
    frameCb = 0;
  };

  const feed = (currentTime: number) => {
    const m = media!;
    const t = clientNow();
    for (const out of detector.sample({ t, currentTime, paused: m.paused, seeking: m.seeking, readyState: m.readyState, ended: m.ended }))
      handle(out);
  };
  const handle = (out: StallOutput) => {
    if (out.type === 'firstFrame') {
      state.startup = { startupMs: out.startupMs, at: out.at };
      publish('startup', state.startup);
    } else if (out.type === 'stallStart') {
      publish('stallStart', { start: out.start, detectedAt: out.detectedAt, currentTime: out.currentTime });
    } else {
      state.stallCount++;
      state.stallTotalMs += out.stall.durationMs;
      pushBounded(state.stalls, out.stall, max);
      publish('stallEnd', out.stall);
    }
  };

  const sampleLatency = (t: number) => {
    lastLatencyAt = t;
    const c = clock.estimate();
    const r = adapter.latency(c ? t + c.offsetMs : null, state.holdSeconds);
    if (r.trueLatency === null && r.edgeDistance === null) return;
    if (r.trueLatency !== null) pushBounded(state.latency, r.trueLatency, max);
    if (r.edgeDistance !== null) pushBounded(state.edge, r.edgeDistance, max);
    const s = { at: t, trueLatency: r.trueLatency, edgeDistance: r.edgeDistance, holdSeconds: state.holdSeconds };
    pushBounded(state.series, s, max);
    publish('latency', s);
  };

  function tick() {
    if (destroyed) return;
    bind(adapter.media());
    if (!media) return;
    feed(media.currentTime);
    const t = clientNow();
    if (state.startup && !media.paused && t - lastLatencyAt >= o.latencyIntervalMs) sampleLatency(t);
  }

  const adapter: Adapter =
    kind === 'hls'
      ? attachHls(target as never, sink, ctx, () => tick())
      : kind === 'dash'
        ? attachDash(target as never, sink)
        : kind === 'shaka'
          ? attachShaka(target as never, sink, ctx)
          : {
              media: () => target as HTMLMediaElement,
              latency: () => ({ trueLatency: null, edgeDistance: null }),
              timeUrl: () => null,
              destroy() {},
            };
  const rep = () => buildReport(state, adapter.manifestLag?.() ?? null);
  if (o.beacon) beacon = createBeacon(o.beacon, o.sessionId, kind, clientNow, () => beaconReport(rep()));
  const timer = setInterval(tick, o.heartbeatMs);
  tick();

  return {
    on: (event, listener) => emitter.on(event, listener),
    off: (event, listener) => emitter.off(event, listener),
    markLoadStart: () => detector.markLoadStart(clientNow()),
    report: rep,
    destroy() {
      if (destroyed) return;
      destroyed = true;
      clearInterval(timer);
      clearTimeout(probeTimer);
      abort.abort();
      connections?.disconnect();
      bind(null);
      adapter.destroy();
      beacon?.close(beaconReport(rep()));
      emitter.clear();
    },
  };
}
