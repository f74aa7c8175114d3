import type { QoeProbe } from '@ethle/qoe-probe';
import type { RunScenario } from './data/RunResult.js';

/**
 * Posts the run (scenario + the probe's report) to the demo's collector every 5 s and when the
 * page goes away, so the dashboard compares schemes live. Returns a stop function.
 */
export function reportRun(probe: QoeProbe, scenario: Omit<RunScenario, 'durationS'>, url = '/api/runs'): () => void {
  const id = crypto.randomUUID();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const send = () => {
    const body = JSON.stringify({ v: 1, id, startedAt, scenario: { ...scenario, durationS: (performance.now() - t0) / 1000 }, report: probe.report() });
    if (!navigator.sendBeacon(url, body)) void fetch(url, { method: 'POST', body, keepalive: true }).catch(() => undefined);
  };
  const timer = setInterval(send, 5000);
  addEventListener('pagehide', send);
  return () => {
    clearInterval(timer);
    removeEventListener('pagehide', send);
    send();
  };
}
