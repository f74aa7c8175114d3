import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EthleError, PLAYER_DEFAULT_MTP_KBPS, chooseRadioEstimate, shouldRedirect, type RadioEstimate, type RadioInput } from '@ethle/core';

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

const est = (bps: number, source: RadioEstimate['source'] = 'measured') =>
  chooseRadioEstimate(
    source === 'rni'
      ? { ...BASE, rniBps: bps }
      : source === 'measured'
        ? { ...BASE, measured: { bps, bytes: 3.7e6 } }
        : source === 'cmcd'
          ? { ...BASE, cmcd: { mtpKbps: bps / 1e3 }, segmentsDownloaded: 1 }
          : { ...BASE, defaultBps: bps },
  );

describe('shouldRedirect: eq. 3 only on sustained evidence', () => {
  it('hls.js first request with mtp=500: no redirect', () => {
    const e = chooseRadioEstimate({ ...BASE, cmcd: { mtpKbps: 500, blMs: 0 } });
    expect(shouldRedirect({ requests: 1, estimates: [e], bitrateBps: BITRATE })).toMatchObject({
      redirect: false,
      reason: 'first-request',
    });
    // Even with a default th_ran below the bitrate, defaults are no evidence.
    const low = chooseRadioEstimate({ ...BASE, defaultBps: 5e6, cmcd: { mtpKbps: 500 } });
    expect(shouldRedirect({ requests: 5, estimates: [low, low, low], bitrateBps: BITRATE })).toMatchObject({
      redirect: false,
      reason: 'too-few-measurements',
    });
  });

  it('never on a first request, whatever the evidence', () => {
    expect(shouldRedirect({ requests: 1, estimates: [est(1e6), est(1e6), est(1e6)], bitrateBps: BITRATE }).redirect).toBe(false);
  });

  it('one measurement below the bitrate is not enough; two in a row are, with them as evidence', () => {
    expect(shouldRedirect({ requests: 3, estimates: [est(10e6)], bitrateBps: BITRATE })).toMatchObject({
      redirect: false,
      reason: 'too-few-measurements',
    });
    const two = [est(10e6), est(12e6, 'cmcd')];
    const d = shouldRedirect({ requests: 3, estimates: two, bitrateBps: BITRATE });
    expect(d).toMatchObject({ redirect: true, reason: 'sustained-below-bitrate' });
    expect(d.evidence.map((e) => [e.source, e.bps])).toEqual([
      ['measured', 10e6],
      ['cmcd', 12e6],
    ]);
  });

  it('a good measurement in between breaks the run; defaults in between do not count either way', () => {
    expect(shouldRedirect({ requests: 9, estimates: [est(10e6), est(40e6), est(10e6)], bitrateBps: BITRATE })).toMatchObject({
      redirect: false,
      reason: 'not-sustained',
    });
    expect(shouldRedirect({ requests: 9, estimates: [est(10e6), est(100e6, 'default'), est(10e6)], bitrateBps: BITRATE }).redirect).toBe(
      true,
    );
    // Equal to the bitrate fails eq. 3 (th_ran must be above b_seg).
    expect(shouldRedirect({ requests: 9, estimates: [est(15e6), est(15e6, 'rni')], bitrateBps: BITRATE }).redirect).toBe(true);
  });

  it('property: a redirect always rests on the last `consecutive` non-default estimates, all ≤ the bitrate', () => {
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
        fc.integer({ min: 1, max: 4 }),
        (requests, raw, consecutive) => {
          const estimates = raw.map(([bps, source]) => est(bps, source));
          const d = shouldRedirect({ requests, estimates, bitrateBps: BITRATE, consecutive });
          if (!d.redirect) return;
          expect(requests).toBeGreaterThan(1);
          const measured = estimates.filter((e) => e.source !== 'default');
          expect(d.evidence).toEqual(measured.slice(-consecutive));
          expect(d.evidence).toHaveLength(consecutive);
          for (const e of d.evidence) expect(e.bps).toBeLessThanOrEqual(BITRATE);
        },
      ),
    );
  });
});
