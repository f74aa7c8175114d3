import { chromium, expect, test } from '@playwright/test';
import { renditionChanges } from './abrFigures.js';
import { runScenario, type ExperimentRun } from './runScenario.js';
import { matrixFromEnv, scenarioId } from './Scenario.js';

const outDir = process.env.EXP_OUT ?? 'results';

for (const s of matrixFromEnv()) {
  test(scenarioId(s), async () => {
    test.setTimeout((s.durationS + 120) * 1000);
    const run = await runScenario(s, chromium, outDir);
    const r = run.report;
    // A run whose player never rendered a frame says nothing about the scheme: fail it loudly.
    // (With many receivers one that never started is a result — the run has written it.)
    if ((s.receivers ?? 1) === 1) expect(r.startupMs, `${run.id}: the player never started`).not.toBeNull();
    console.log(
      `${run.id}: startup ${((r.startupMs ?? NaN) / 1000).toFixed(1)} s, stalls ${r.stalls.count} (${(r.stalls.totalMs / 1000).toFixed(1)} s), ` +
        `latency ${r.latency.current?.toFixed(1) ?? '–'} s, hold ${r.holdSeconds} s, x ${run.edge?.x ?? '–'}` +
        (run.scale && run.scale.receivers > 1
          ? `, ${run.scale.played}/${run.scale.receivers} played, origin ${run.scale.originFetchesPerSegment?.toFixed(2)} fetches/segment, backhaul ${run.scale.backhaulMbps.mean.toFixed(0)} Mbit/s`
          : '') +
        (run.source
          ? `, source ${run.source.tracks.map((t) => `${t.segments} segments of ${(t.bytes.mean / 1e6).toFixed(2)} MB / ${t.durationS.mean.toFixed(2)} s (${t.bitrateMbps.toFixed(1)} Mbit/s)`).join('; ')}`
          : '') +
        (run.abr
          ? `, renditions ${renditionChanges(run.abr) || 'none rendered'} (top ${run.abr.topShare === null ? '–' : `${(run.abr.topShare * 100).toFixed(0)} %`} of playing time, ${run.abr.switches} switches; origin served ${Object.entries(
              run.abr.originFetches ?? {},
            )
              .map(([r, k]) => `${r} ${k}`)
              .join(', ')} segment fetches)`
          : '') +
        (run.box?.cpuPressure !== undefined ? `, CPU pressure ${(run.box.cpuPressure * 100).toFixed(0)} %` : '') +
        (run.box?.cpuSteal !== undefined ? `, steal ${(run.box.cpuSteal * 100).toFixed(1)} %` : '') +
        `, ${accountLine(run)}` +
        (run.invalid
          ? ` — INVALID, failed ${run.validity?.failed.join(' and ') ?? 'a bar'} (not averaged; counted in summary.csv): ${run.invalid}`
          : ''),
    );
  });
}

/** What the links counted: drops the model made, drops it did not (any makes the run invalid), the relays' worst p99 lateness, the origin's retransmissions. */
function accountLine(run: ExperimentRun): string {
  const dirs = run.links ? [run.links.ran.up, run.links.ran.down, run.links.backhaul.up, run.links.backhaul.down] : [];
  const sum = (o: object) => Object.values(o).reduce((a: number, b: number) => a + b, 0);
  const unmodelled = dirs.reduce((a, d) => a + sum(d.unmodelled), 0);
  const modelled = dirs.reduce((a, d) => a + sum(d.modelled), 0);
  const p99 = Math.max(...dirs.map((d) => d.lateness.p99Ms));
  const natural = dirs.some((d) => d.naturalLateness)
    ? ` (${Math.max(...dirs.map((d) => d.naturalLateness?.p99Ms ?? 0)).toFixed(2)} beyond the injected)`
    : '';
  return `drops: ${unmodelled} unmodelled, ${modelled} modelled; relays p99 ≤ ${p99.toFixed(2)} ms${natural} (bar ${run.validity?.lateP99BarMs ?? '–'} ms); origin retransmits ${run.tcp?.origin.TcpRetransSegs ?? '–'}${run.validity && !run.validity.settled ? '; links not quiet when read: not balanced' : ''}`;
}
