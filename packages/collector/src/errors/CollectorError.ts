import { COLLECTOR_ERROR_STATUS, type CollectorErrorCode } from './CollectorErrorCode.js';

/** The one error type the collector throws: a code from the catalogue plus structured details. */
export class CollectorError extends Error {
  override readonly name = 'CollectorError';
  readonly code: CollectorErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: CollectorErrorCode, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.details = details;
  }

  /** The HTTP status a request that failed with this error gets. */
  get status(): number {
    return COLLECTOR_ERROR_STATUS[this.code];
  }
}

export function isCollectorError(e: unknown): e is CollectorError {
  return e instanceof CollectorError;
}
