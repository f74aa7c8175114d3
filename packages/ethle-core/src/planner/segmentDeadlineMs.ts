import { EthleError } from '../errors/EthleError.js';

/**
 * When a held segment becomes visible to the hold-x group, ms: its production time plus x
 * segment lengths (the playlist shows it once x newer ones exist). A receiver may ask for it
 * from then on, so its prefetch must be complete by then.
 */
export function segmentDeadlineMs(producedAtMs: number, hold: number, segmentSeconds: number): number {
  if (!Number.isFinite(producedAtMs)) invalid('producedAtMs', producedAtMs);
  if (!Number.isInteger(hold) || hold < 0 || hold > 100) invalid('hold', hold);
  if (!(segmentSeconds > 0) || !Number.isFinite(segmentSeconds)) invalid('segmentSeconds', segmentSeconds);
  return producedAtMs + hold * segmentSeconds * 1000;
}

function invalid(field: string, value: unknown): never {
  throw new EthleError('ERR_PLANNER_INVALID_INPUT', `${field} is out of range: ${JSON.stringify(value)}`, { field, value });
}
