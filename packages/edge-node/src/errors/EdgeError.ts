import type { EdgeErrorCode } from './EdgeErrorCode.js';

/** The one error type the edge throws: a code from the catalogue plus structured details. */
export class EdgeError extends Error {
  override readonly name = 'EdgeError';
  readonly code: EdgeErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: EdgeErrorCode, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(`${code}: ${message}`, options);
    this.code = code;
    this.details = details;
  }
}

export function isEdgeError(e: unknown): e is EdgeError {
  return e instanceof EdgeError;
}
