import { EdgeError } from '../errors/EdgeError.js';

/** A flag's value as a number; anything else names the flag (ERR_EDGE_CONFIG_INVALID). */
export function flagNumber(flag: string, raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n))
    throw new EdgeError('ERR_EDGE_CONFIG_INVALID', `--${flag}: expected a number, got ${JSON.stringify(raw)}`);
  return n;
}
