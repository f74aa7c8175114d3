import { EthleError } from '../errors/EthleError.js';

const DURATION_RE = /^(-)?P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * xs:duration as MPDs use it (PnDTnHnMnS) → seconds. Years and months have no fixed length and do
 * not occur in live MPDs; they are rejected rather than guessed.
 */
export function parseXsDuration(s: string, field: string): number {
  const m = DURATION_RE.exec(s.trim());
  if (!m || s.trim() === 'P' || s.trim().endsWith('T')) {
    throw new EthleError('ERR_DASH_MALFORMED', `${field} is not an xs:duration: ${JSON.stringify(s)}`, { field, value: s });
  }
  const v = Number(m[2] ?? 0) * 86400 + Number(m[3] ?? 0) * 3600 + Number(m[4] ?? 0) * 60 + Number(m[5] ?? 0);
  if (m[1] || !Number.isFinite(v) || v > 1e9)
    throw new EthleError('ERR_DASH_MALFORMED', `${field} is out of range: ${s}`, { field, value: s });
  return v;
}
