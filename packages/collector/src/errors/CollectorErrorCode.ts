/**
 * Catalogue of the collector's error codes. Each has one HTTP status (COLLECTOR_ERROR_STATUS), so
 * a sender or a dashboard acts on the code, never on the message.
 */
export const COLLECTOR_ERROR_STATUS = {
  /** The body is not JSON, or not a beacon batch: the message names the first bad field. 400 */
  COLLECTOR_ERR_BAD_BATCH: 400,
  /** The batch's `v` is not a format version this collector reads. 400 */
  COLLECTOR_ERR_VERSION: 400,
  /** The body is over maxBodyBytes (sendBeacon's own limit is 64 KiB). 413 */
  COLLECTOR_ERR_TOO_LARGE: 413,
  /** A batch with more events than maxEventsPerBatch. 413 */
  COLLECTOR_ERR_TOO_MANY_EVENTS: 413,
  /** The content type is neither text/plain nor application/json. 415 */
  COLLECTOR_ERR_CONTENT_TYPE: 415,
  /** The session is over its limit (seq ≥ maxBatchesPerSession). 429 */
  COLLECTOR_ERR_SESSION_LIMIT: 429,
  /** Too many batches wait for the store: try again later (Retry-After). 503 */
  COLLECTOR_ERR_BUSY: 503,
  /** The store failed to write or read; nothing of the batch was stored. 500 */
  COLLECTOR_ERR_STORE: 500,
  /** A bug: something the collector did not expect (logged with its stack). 500 */
  COLLECTOR_ERR_INTERNAL: 500,
  /** A query parameter is out of range or unknown: the message names it. 400 */
  COLLECTOR_ERR_BAD_QUERY: 400,
  /** No such route, or no such session. 404 */
  COLLECTOR_ERR_NOT_FOUND: 404,
  /** The page's Origin is not in corsOrigins. 403 */
  COLLECTOR_ERR_ORIGIN: 403,
  /** The method is not allowed on this route. 405 */
  COLLECTOR_ERR_METHOD: 405,
  /** The collector is closing: nothing is accepted any more. 503 */
  COLLECTOR_ERR_CLOSING: 503,
  /** The configuration is invalid (the message names the option). */
  COLLECTOR_ERR_CONFIG: 500,
  /** The database cannot be opened (another process holds it, a bad URL, no server). */
  COLLECTOR_ERR_OPEN: 500,
  /** A migration failed; the message names it. */
  COLLECTOR_ERR_MIGRATION: 500,
} as const;

export type CollectorErrorCode = keyof typeof COLLECTOR_ERROR_STATUS;
