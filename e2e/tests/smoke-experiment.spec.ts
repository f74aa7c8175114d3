import { chromium, expect, test } from '@playwright/test';
import { runScenario } from '../experiments/runScenario.js';
import type { Scenario } from '../experiments/Scenario.js';
import { stallCauses } from '../experiments/summarize.js';

// The QoE experiment in miniature, on real kernel TCP (packages/netlab): one cell of the paper's
// matrix — 15M-2s over a 224 ms (Japan) backhaul and an LTE-A RAN — played by real hls.js with the
// probe, E2E (straight to the origin) and through the ETHLE edge (auto). The full matrix is
// `npm run experiment`, not a test. Needs root for the network namespaces (CI runs as root).
test.skip(process.getuid?.() !== 0, 'needs root for network namespaces');
test.describe.configure({ mode: 'serial' });

const cell = { rttMs: 224, stream: '15M-2s', ran: 'lte-a', repeat: 1, durationS: 25, player: 'hls', cc: 'bbr' } as const;
const runs: Record<string, Awaited<ReturnType<typeof runScenario>>> = {};

for (const scheme of ['e2e', 'auto']) {
  test(`${cell.stream} at ${cell.rttMs} ms over LTE-A: ${scheme}`, async () => {
    test.setTimeout(180_000);
    const s: Scenario = { ...cell, scheme };
    const run = await runScenario(s, chromium, process.env.EXP_OUT);
    runs[scheme] = run;
    const r = run.report;
    console.log(
      `${scheme}: startup ${r.startupMs?.toFixed(0)} ms, stalls ${r.stalls.count} (${r.stalls.totalMs.toFixed(0)} ms), latency ${r.latency.current?.toFixed(1)} s, hold ${r.holdSeconds} s`,
    );
    expect(r.startupMs, 'the player started').not.toBeNull();
    expect(r.segments.count).toBeGreaterThan(10);
    if (scheme === 'auto') {
      // A failure must say where its stalls came from: a segment the edge held whole (the radio
      // leg), one still crossing the backhaul, or none in flight.
      if (r.stalls.count > 0)
        console.log(
          `auto stall causes: ${JSON.stringify(stallCauses(run))}; x changes: ${JSON.stringify(run.edge?.holdChanges)}; relays: ${JSON.stringify(run.links)}`,
        );
      // ETHLE's promise: no buffering. The model holds x ≥ 1 for 3.7 MB segments at 224 ms (Table III: 2).
      expect(r.stalls.count).toBe(0);
      expect(run.edge?.x).toBeGreaterThanOrEqual(1);
      expect(r.holdSeconds).toBe((run.edge?.x ?? 0) * 2);
      // One origin flow: every segment was fetched from the origin once.
      expect(run.edge?.originRequestsPerSegment).toBe(1);
    }
  });
}

test('auto: the edge was already fetching the start segment when the player asked (startup against E2E reported)', () => {
  // Same cell, same repeat: both runs saw the same radio (the seeded cell load), so this compares the
  // schemes. Paper Table II, Japan 15M-2s: E2E 14.5 s vs hold-2 4.7 s, from a cubic origin's cold
  // slow start. Against this testbed's BBR origin E2E starts fast too (docs/experiments/paper-matrix/
  // runs.csv, this cell): Chromium r1 E2E 2.84 s, auto 2.81 s; virtual receivers, five repeats,
  // E2E 2.89–2.98 s, auto 2.51–2.67 s. A CI run of this test saw 2.86 vs 2.93 s. One Chromium run
  // each cannot order the schemes at that spread, so the test asserts what holds every run and
  // breaks with the mechanism:
  test.skip(runs.e2e === undefined || runs.auto === undefined, 'needs both runs above');
  const e2e = runs.e2e!.report.startupMs!;
  const auto = runs.auto!.report.startupMs!;
  console.log(`startup: e2e ${e2e.toFixed(0)} ms, auto ${auto.toFixed(0)} ms`);
  // - the edge plans the start segment before any receiver asks (LiveStream: the first fetch of a
  //   plan with no receiver yet, as parallel ranges), so the player's first media request finds it
  //   on its way (coalesced) or there (hit), never a miss the player waits a whole backhaul fetch for;
  const first = runs.auto!.edge?.segmentRequests?.find((r) => !/init\.(mp4|m4s)$/.test(r.path));
  expect(first, 'the player asked the edge for a media segment').toBeDefined();
  expect(first!.result, `${first!.path} at ${first!.atS} s`).not.toBe('miss');
  // - holding should cost no startup: the held manifest still lists the start segment. Measured
  //   on quiet fresh-clone runs it sometimes does: auto 4.1, 4.9 s against E2E 3.8, 3.6 s (BBR),
  //   and 7.9 vs 3.8 s on CUBIC under load. Why is open (issue 38 note); reported, not judged,
  //   until the matrix measures it with repeats.
  if (auto >= e2e + 500) console.warn(`auto started ${((auto - e2e) / 1000).toFixed(2)} s after E2E`);
});
