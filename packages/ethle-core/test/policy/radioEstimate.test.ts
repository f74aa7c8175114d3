import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EthleError,
  HOLD_POLICY_DEFAULTS,
  PLAYER_DEFAULT_MTP_KBPS,
  chooseRadioEstimate,
  shouldRedirect,
  type NotedEstimate,
  type RadioEstimate,
  type RadioInput,
} from '@ethle/core';

// 15M-2s on the demo: 3.7 MB segments, 15 Mbit/s; the edge's default th_ran 100 Mbit/s.
const BASE: RadioInput = { segmentBytes: 3.7e6, segmentsDownloaded: 0, defaultBps: 100e6 };
const BITRATE = 15e6;

describe('chooseRadioEstimate: RNI, then the edge’s own measurement, then credible CMCD, then the default', () => {
  it('RNI wins whenever present', () => {
    const e = chooseRadioEstimate({
      ...BASE,
      rniBps: 40e6,
      measured: { bps: 80e6, bytes: 1e7 },
      cmcd: { mtpKbps: 60000, blMs: 4000 },
      segmentsDownloaded: 3,
    });
    expect(e).toMatchObject({ bps: 40e6, source: 'rni' });
  });

  it("the edge's measurement once it covers one segment's bytes, not before", () => {
    expect(chooseRadioEstimate({ ...BASE, measured: { bps: 80e6, bytes: 3.7e6 } })).toMatchObject({ bps: 80e6, source: 'measured' });
    const short = chooseRadioEstimate({ ...BASE, measured: { bps: 2e6, bytes: 3.6e6 } });
    expect(short).toMatchObject({ bps: 100e6, source: 'default' });
    expect(short.evidence).toMatchObject({ measuredBps: 2e6, measuredBytes: 3.6e6, skipped: ['measured-too-few-bytes'] });
  });

  it('hls.js first request with mtp=500: the default is used, with the reason', () => {
    expect(PLAYER_DEFAULT_MTP_KBPS).toContain(500);
    const e = chooseRadioEstimate({ ...BASE, cmcd: { mtpKbps: 500, blMs: 0 } });
    expect(e).toMatchObject({ bps: 100e6, source: 'default' });
    expect(e.evidence.skipped).toEqual(['cmcd-before-first-segment']);
    expect(e.evidence.mtpKbps).toBe(500);
  });

  it('CMCD mtp counts after a media segment (history) or with media buffered, unless it is a player default', () => {
    expect(chooseRadioEstimate({ ...BASE, cmcd: { mtpKbps: 48100 }, segmentsDownloaded: 1 })).toMatchObject({
      bps: 48.1e6,
      source: 'cmcd',
    });
    // Even a measured 500 kbit/s counts once a segment went through the edge.
    expect(chooseRadioEstimate({ ...BASE, cmcd: { mtpKbps: 500 }, segmentsDownloaded: 1 })).toMatchObject({ bps: 0.5e6, source: 'cmcd' });
    // Buffered media (from elsewhere) makes mtp credible without edge history ...
    expect(chooseRadioEstimate({ ...BASE, cmcd: { mtpKbps: 48100, blMs: 6000 } })).toMatchObject({ bps: 48.1e6, source: 'cmcd' });
    // ... but not when it is exactly hls.js's starting estimate.
    const d = chooseRadioEstimate({ ...BASE, cmcd: { mtpKbps: 500, blMs: 6000 } });
    expect(d).toMatchObject({ source: 'default', evidence: { skipped: ['cmcd-player-default'] } });
  });

  it("the edge's measurement beats CMCD; a short one falls through to CMCD", () => {
    const cmcd = { mtpKbps: 48100, blMs: 4000 };
    expect(chooseRadioEstimate({ ...BASE, measured: { bps: 70e6, bytes: 4e6 }, cmcd, segmentsDownloaded: 1 }).source).toBe('measured');
    const e = chooseRadioEstimate({ ...BASE, measured: { bps: 70e6, bytes: 1e5 }, cmcd, segmentsDownloaded: 1 });
    expect(e).toMatchObject({ source: 'cmcd', evidence: { skipped: ['measured-too-few-bytes'] } });
  });

  it('bad input is a coded error', () => {
    for (const bad of [
      { segmentBytes: 0 },
      { segmentsDownloaded: -1 },
      { defaultBps: Number.NaN },
      { measured: { bps: -1, bytes: 5 } },
      { cmcd: { mtpKbps: -5 } },
    ]) {
      try {
        chooseRadioEstimate({ ...BASE, ...bad });
        expect.unreachable();
      } catch (e) {
        expect((e as EthleError).code).toBe('ERR_MODEL_INVALID_INPUT');
      }
    }
  });
});

const est = (bps: number, source: RadioEstimate['source'] = 'measured', atMs = 0): NotedEstimate => ({
  ...chooseRadioEstimate(
    source === 'rni'
      ? { ...BASE, rniBps: bps }
      : source === 'measured'
        ? { ...BASE, measured: { bps, bytes: 3.7e6 } }
        : source === 'cmcd'
          ? { ...BASE, cmcd: { mtpKbps: bps / 1e3 }, segmentsDownloaded: 1 }
          : { ...BASE, defaultBps: bps },
  ),
  atMs,
});
/** Measurements every `everyMs` from 0, of the given Mbit/s. */
const series = (mbps: readonly number[], everyMs = 2000): NotedEstimate[] => mbps.map((m, i) => est(m * 1e6, 'measured', i * everyMs));

describe('shouldRedirect: eq. 3 only on sustained evidence in time', () => {
  it('hls.js first request with mtp=500: no redirect', () => {
    const e = { ...chooseRadioEstimate({ ...BASE, cmcd: { mtpKbps: 500, blMs: 0 } }), atMs: 0 };
    expect(shouldRedirect({ requests: 1, estimates: [e], bitrateBps: BITRATE })).toMatchObject({
      redirect: false,
      reason: 'first-request',
    });
    // Even with a default th_ran below the bitrate, defaults are no evidence, over any time.
    const low = (atMs: number) => ({ ...chooseRadioEstimate({ ...BASE, defaultBps: 5e6, cmcd: { mtpKbps: 500 } }), atMs });
    expect(shouldRedirect({ requests: 5, estimates: [low(0), low(40_000), low(80_000)], bitrateBps: BITRATE })).toMatchObject({
      redirect: false,
      reason: 'too-few-measurements',
    });
  });

  it('never on a first request, whatever the evidence', () => {
    const e = series([1, 1, 1, 1], 20_000);
    expect(shouldRedirect({ requests: 1, estimates: e, bitrateBps: BITRATE }).redirect).toBe(false);
  });

  it('the window is 30 s by default', () => {
    expect(HOLD_POLICY_DEFAULTS.redirectSustainMs).toBe(30_000);
    const slow = series(Array(16).fill(10)); // 0 … 30 s at 10 Mbit/s
    expect(shouldRedirect({ requests: 16, estimates: slow.slice(0, 15), bitrateBps: BITRATE })).toMatchObject({
      redirect: false,
      reason: 'window-too-short',
    });
    expect(shouldRedirect({ requests: 16, estimates: slow, bitrateBps: BITRATE })).toMatchObject({
      redirect: true,
      reason: 'sustained-below-bitrate',
    });
  });

  // Issue 38: the old rule (the last two measurements ≤ b_seg) redirected a 48.8 Mbit/s stream's
  // receiver on an LTE-A cell at 50 % load (~82 Mbit/s on average) after two measurements ~4 s
  // apart; from the origin it stalled five times.
  it('two low measurements in an otherwise 80 Mbit/s radio: no redirect at any point', () => {
    const bitrateBps = 48.8e6;
    const radio = series([80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 30, 30, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80]);
    for (let k = 1; k <= radio.length; k++) {
      const d = shouldRedirect({ requests: k + 1, estimates: radio.slice(0, k), bitrateBps });
      expect(d.redirect, `after ${k} measurements`).toBe(false);
    }
    // Even judged at the second low one, with a window long enough behind it: the mean carries the stream.
    const atDip = shouldRedirect({ requests: 20, estimates: radio.slice(0, 13), bitrateBps, sustainMs: 20_000 });
    expect(atDip).toMatchObject({ redirect: false, reason: 'not-sustained' });
    expect(atDip.evidence.spanMs).toBe(20_000);
    expect(atDip.evidence.meanBps! / 1e6).toBeCloseTo((9 * 80 + 30) / 10, 6);
  });

  it('a radio at 30 Mbit/s for 30 s redirects, with the window mean and span as evidence; not a moment earlier', () => {
    const bitrateBps = 48.8e6;
    const radio = series(Array(16).fill(30)); // at 0, 2, …, 30 s
    for (let k = 1; k < radio.length; k++)
      expect(shouldRedirect({ requests: k + 1, estimates: radio.slice(0, k), bitrateBps }).redirect, `at ${(k - 1) * 2} s`).toBe(false);
    const d = shouldRedirect({ requests: 17, estimates: radio, bitrateBps });
    expect(d).toMatchObject({ redirect: true, reason: 'sustained-below-bitrate' });
    expect(d.evidence.spanMs).toBe(30_000);
    expect(d.evidence.meanBps).toBeCloseTo(30e6, 0);
    expect(d.evidence.measurements).toEqual(radio);
  });

  it('a window not yet sustainMs long does not redirect, however low', () => {
    const e = [est(1e6, 'measured', 0), est(1e6, 'rni', 10_000), est(1e6, 'cmcd', 29_999)];
    const d = shouldRedirect({ requests: 9, estimates: e, bitrateBps: BITRATE });
    expect(d).toMatchObject({ redirect: false, reason: 'window-too-short' });
    expect(d.evidence.spanMs).toBe(29_999);
    expect(shouldRedirect({ requests: 9, estimates: e, bitrateBps: BITRATE, sustainMs: 29_999 }).redirect).toBe(true);
  });

  it('the mean is over time, not per measurement: a burst of low ones does not outweigh the rest of the window', () => {
    // 20 s at 60 Mbit/s (one measurement), then ten at 10 Mbit/s within 10 s, the latest low too.
    const e = [est(60e6, 'measured', 0), ...Array.from({ length: 11 }, (_, i) => est(10e6, 'rni', 20_000 + i * 1000))];
    const d = shouldRedirect({ requests: 20, estimates: e, bitrateBps: BITRATE });
    // Per measurement the mean would be ~14 Mbit/s (≤ 15); over time it is 43.3.
    expect(d.evidence.meanBps! / 1e6).toBeCloseTo((60 * 20 + 10 * 10) / 30, 6);
    expect(d).toMatchObject({ redirect: false, reason: 'not-sustained' });
  });

  it('the latest measurement must fail eq. 3 too: a radio that just recovered is not sent away on its past', () => {
    const e = [...series(Array(16).fill(10)), est(40e6, 'measured', 32_000)];
    expect(shouldRedirect({ requests: 30, estimates: e, bitrateBps: BITRATE })).toMatchObject({ redirect: false, reason: 'not-sustained' });
    // Equal to the bitrate fails eq. 3 (th_ran must be above b_seg).
    expect(shouldRedirect({ requests: 30, estimates: series(Array(16).fill(15)), bitrateBps: BITRATE }).redirect).toBe(true);
  });

  it('defaults in between count neither way; `consecutive` stays a least count in the window', () => {
    const e = [est(10e6, 'measured', 0), est(100e6, 'default', 15_000), est(10e6, 'cmcd', 30_000)];
    expect(shouldRedirect({ requests: 9, estimates: e, bitrateBps: BITRATE }).redirect).toBe(true);
    expect(shouldRedirect({ requests: 9, estimates: e, bitrateBps: BITRATE, consecutive: 3 })).toMatchObject({
      redirect: false,
      reason: 'too-few-measurements',
    });
  });

  it('sustainMs 0 is the rule before: the last two measurements, both at or below the bitrate', () => {
    expect(shouldRedirect({ requests: 3, estimates: [est(10e6)], bitrateBps: BITRATE, sustainMs: 0 })).toMatchObject({
      redirect: false,
      reason: 'too-few-measurements',
    });
    const two = [est(10e6, 'measured', 0), est(12e6, 'cmcd', 2000)];
    const d = shouldRedirect({ requests: 3, estimates: two, bitrateBps: BITRATE, sustainMs: 0 });
    expect(d).toMatchObject({
      redirect: true,
      reason: 'sustained-below-bitrate',
      evidence: { measurements: two, spanMs: 2000, meanBps: 10e6 },
    });
    // A good measurement between two low ones breaks the run.
    const broken = [est(10e6, 'measured', 0), est(40e6, 'measured', 2000), est(10e6, 'measured', 4000)];
    expect(shouldRedirect({ requests: 9, estimates: broken, bitrateBps: BITRATE, sustainMs: 0 })).toMatchObject({
      redirect: false,
      reason: 'not-sustained',
    });
  });

  it('bad inputs are refused with ERR_MODEL_INVALID_INPUT', () => {
    for (const sustainMs of [-1, Number.NaN, Number.POSITIVE_INFINITY, 600_001, '30000' as unknown as number]) {
      try {
        shouldRedirect({ requests: 3, estimates: series([10, 10]), bitrateBps: BITRATE, sustainMs });
        expect.unreachable();
      } catch (e) {
        expect((e as EthleError).code, String(sustainMs)).toBe('ERR_MODEL_INVALID_INPUT');
      }
    }
  });

  it('property: a redirect rests on non-default measurements reaching back sustainMs, at least `consecutive`, mean and latest ≤ the bitrate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.array(
          fc.tuple(
            fc.double({ min: 1e5, max: 1e8, noNaN: true }),
            fc.constantFrom<RadioEstimate['source']>('rni', 'measured', 'cmcd', 'default'),
            fc.integer({ min: 0, max: 10_000 }),
          ),
          { maxLength: 30 },
        ),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 60_000 }),
        (requests, raw, consecutive, sustainMs) => {
          let t = 0;
          const estimates = raw.map(([bps, source, gap]) => est(bps, source, (t += gap)));
          const d = shouldRedirect({ requests, estimates, bitrateBps: BITRATE, consecutive, sustainMs });
          if (!d.redirect) return;
          expect(requests).toBeGreaterThan(1);
          const measured = estimates.filter((e) => e.source !== 'default');
          const w = d.evidence.measurements;
          expect(w).toEqual(measured.slice(-w.length));
          expect(w.length).toBeGreaterThanOrEqual(consecutive);
          expect(d.evidence.spanMs).toBeGreaterThanOrEqual(sustainMs);
          expect(d.evidence.spanMs).toBe(w[w.length - 1]!.atMs - w[0]!.atMs);
          expect(w[w.length - 1]!.bps).toBeLessThanOrEqual(BITRATE);
          if (w.length > 1) expect(d.evidence.meanBps!).toBeLessThanOrEqual(BITRATE * (1 + 1e-12));
          // The window is the shortest that reaches back far enough: without its first, it would not.
          if (w.length > consecutive) expect(w[w.length - 1]!.atMs - w[1]!.atMs).toBeLessThan(sustainMs);
        },
      ),
    );
  });

  it('property: with sustainMs 0 and two measurements it decides as the rule before did', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.array(
          fc.tuple(
            fc.double({ min: 1e5, max: 1e8, noNaN: true }),
            fc.constantFrom<RadioEstimate['source']>('rni', 'measured', 'cmcd', 'default'),
          ),
          { maxLength: 10 },
        ),
        (requests, raw) => {
          const estimates = raw.map(([bps, source], i) => est(bps, source, i * 2000));
          const measured = estimates.filter((e) => e.source !== 'default');
          const before = requests > 1 && measured.length >= 2 && measured.slice(-2).every((e) => !(e.bps > BITRATE));
          expect(shouldRedirect({ requests, estimates, bitrateBps: BITRATE, sustainMs: 0 }).redirect).toBe(before);
        },
      ),
    );
  });
});
