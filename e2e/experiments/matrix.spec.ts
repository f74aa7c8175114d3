import { chromium, expect, test } from '@playwright/test';
import { runScenario } from './runScenario.js';
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
        (run.scale && run.scale.receivers > 1 ? `, ${run.scale.played}/${run.scale.receivers} played, origin ${run.scale.originFetchesPerSegment?.toFixed(2)} fetches/segment, backhaul ${run.scale.backhaulMbps.mean.toFixed(0)} Mbit/s` : '') +
        (run.box?.cpuPressure !== undefined ? `, CPU pressure ${(run.box.cpuPressure * 100).toFixed(0)} %` : '') +
        (run.box?.cpuSteal !== undefined ? `, steal ${(run.box.cpuSteal * 100).toFixed(1)} %` : '') +
        (run.invalid ? ` — INVALID (${run.invalid})` : ''),
    );
  });
}
