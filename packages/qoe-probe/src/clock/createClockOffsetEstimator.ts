import { createIntervalIntersection } from './createIntervalIntersection.js';

/**
 * Server clock offset from HTTP responses, pure.
 *
 * Each response says the server's clock read some value in [serverMs, serverMs + resolutionMs)
 * (an HTTP Date header: whole seconds, resolution 1000 ms) at some client instant between sending
 * the request and receiving the response. So offset = server − client lies in
 *   [serverMs − recvMs, serverMs + resolutionMs − sendMs].
 * Intersecting these intervals over several responses narrows it below the Date header's 1 s
 * resolution: responses arrive at different phases of the server's second, and each cuts the
 * interval from one side (NTP-style). The intersection is Marzullo's (createIntervalIntersection):
 * the region most kept samples agree on, so a stale Date (a cached response) is outvoted; the
 * narrowest samples are kept however old (widened by the clocks' possible drift), and a clock
 * step is followed once a few new samples in a row miss the region.
 * The estimate is the interval's midpoint; its precision is the half-width.
 */

export interface ClockSample {
  /** Client time the request was sent, ms. */
  sendMs: number;
  /** Client time the response (ideally its first byte) arrived, ms. */
  recvMs: number;
  /** Server time the response states, ms (floored to its resolution). */
  serverMs: number;
  /** Resolution of serverMs, ms: 1000 for a Date header, 1 for a ms-precision time source. */
  resolutionMs: number;
}

export interface ClockEstimate {
  /** Add to the client clock to get the server clock, ms. */
  offsetMs: number;
  /** Half-width of the interval the true offset lies in, ms. */
  precisionMs: number;
  /** Samples that contributed. */
  samples: number;
}

export interface ClockOffsetEstimator {
  /** Returns false (and ignores it) for a malformed sample. */
  add(sample: ClockSample): boolean;
  estimate(): ClockEstimate | null;
  /**
   * When (client ms, ≥ nowMs) to send a request so that its Date header halves the uncertainty:
   * the server's next whole second is then predicted to tick while the request is in flight, so
   * whichever second the Date names cuts the interval at its midpoint (bisection). Null before the
   * first sample. A player's own requests come at a fixed cadence (every segment duration), so
   * they keep hitting the same phase of the server's second and alone cannot refine below ±0.5 s.
   */
  nextProbeAt(nowMs: number, rttMs: number): number | null;
}

/**
 * How fast the offset may move, ms per ms: the server's clock and the client's monotonic clock
 * may run at rates 100 ppm apart (two free-running crystals; NTP-disciplined clocks are far
 * closer), so an interval taken t ms ago is widened by 1e-4·t on each side.
 */
const DRIFT = 1e-4;

export function createClockOffsetEstimator(maxSamples = 32): ClockOffsetEstimator {
  const core = createIntervalIntersection(maxSamples, DRIFT);
  let cached: ClockEstimate | null = null;
  return {
    add({ sendMs, recvMs, serverMs, resolutionMs }) {
      if (![sendMs, recvMs, serverMs, resolutionMs].every(Number.isFinite) || recvMs < sendMs || resolutionMs <= 0) return false;
      // Aged from the send: the Date was stamped at some instant after it, and the offset may have
      // drifted from that instant on (aged from the receipt, an interval was short by up to
      // drift × RTT: µs, but a bound is a bound).
      core.add(serverMs - recvMs, serverMs + resolutionMs - sendMs, sendMs);
      const e = core.estimate()!;
      cached = { offsetMs: e.value, precisionMs: e.precision, samples: e.samples };
      return true;
    },
    estimate: () => cached,
    nextProbeAt(nowMs, rttMs) {
      if (!cached) return null;
      // Send at c − rtt/2 where the server's second boundary B is reached at client time c = B − offset.
      const lead = cached.offsetMs + rttMs / 2;
      return Math.ceil((nowMs + lead) / 1000) * 1000 - lead;
    },
  };
}

/** An HTTP-date (RFC 9110, e.g. "Sun, 22 Nov 2026 11:00:55 GMT") in ms, or null. */
export function parseHttpDate(value: string | null | undefined): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}
