import type { VirtualReport } from './VirtualReport.js';

/** The experiments' scenario fields (player-demo `RunScenario`), as far as a virtual run knows them. */
export interface VirtualRunScenario {
  stream: string;
  player: 'hls' | 'dash';
  scheme: string;
  hold?: number;
  rttMs?: number;
  ran?: string;
  repeat?: number;
  durationS: number;
  playerConfig?: Record<string, unknown>;
}

/**
 * A virtual run in the results file format (docs/interfaces.md; player-demo `RunResult`): the
 * dashboard and summarize.ts read it as they read a Chromium run. `report.receiver` says 'virtual'.
 */
export interface VirtualRunResult {
  v: 1;
  id: string;
  startedAt: string;
  scenario: VirtualRunScenario;
  report: VirtualReport;
}

export function toRunResult(report: VirtualReport, o: { id: string; startedAt: Date; scenario: VirtualRunScenario }): VirtualRunResult {
  return { v: 1, id: o.id, startedAt: o.startedAt.toISOString(), scenario: o.scenario, report };
}
