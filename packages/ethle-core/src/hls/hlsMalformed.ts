import { EthleError } from '../errors/EthleError.js';

/** ERR_HLS_MALFORMED with the 1-based line number and tag, so an operator can find the bad line. */
export function hlsMalformed(lineIndex: number, tag: string, reason: string, extra: Record<string, unknown> = {}): EthleError {
  return new EthleError('ERR_HLS_MALFORMED', `line ${lineIndex + 1}${tag === '' ? '' : ` (${tag})`}: ${reason}`, {
    line: lineIndex + 1,
    tag,
    reason,
    ...extra,
  });
}
