import type { VirtualPlayerConfigInput } from './config/VirtualPlayerConfig.js';
import { toRunResult, type VirtualRunResult, type VirtualRunScenario } from './report/toRunResult.js';
import { startVirtualPlayer } from './startVirtualPlayer.js';

/**
 * Plays `url` for `seconds` and returns the run. The scenario's stream defaults to the path's
 * `/live/{stream}/` segment (the live origin's and the edge's URL shape) and its scheme to `e2e`.
 */
export async function playVirtual(
  input: VirtualPlayerConfigInput & { seconds: number; scenario?: Partial<VirtualRunScenario>; id?: string },
): Promise<VirtualRunResult> {
  const startedAt = new Date();
  const player = await startVirtualPlayer(input);
  try {
    await new Promise((r) => setTimeout(r, input.seconds * 1000));
  } finally {
    await player.close();
  }
  const report = player.report();
  const stream = input.scenario?.stream ?? /\/live\/([^/]+)\//.exec(new URL(input.url).pathname)?.[1] ?? 'unknown';
  const scheme = input.scenario?.scheme ?? 'e2e';
  const scenario: VirtualRunScenario = { stream, player: input.player, scheme, durationS: input.seconds, hold: 0, ...input.scenario };
  return toRunResult(report, {
    id: input.id ?? `${stream}-${scheme}-${input.player}-virtual-${report.session.slice(0, 8)}`,
    startedAt,
    scenario,
  });
}
