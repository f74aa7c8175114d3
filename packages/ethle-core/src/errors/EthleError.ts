import type { EthleErrorCode } from './EthleErrorCode.js';

/**
 * The one error type the core throws. A code from the catalogue plus structured details, so the
 * edge can map it to an HTTP status and a metric label without parsing messages (cf. undici's
 * UND_ERR_* and Workbox's WorkboxError).
 */
export class EthleError extends Error {
  override readonly name = 'EthleError';
  readonly code: EthleErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: EthleErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(`${code}: ${message}`);
    this.code = code;
    this.details = details;
  }
}

export function isEthleError(e: unknown): e is EthleError {
  return e instanceof EthleError;
}
