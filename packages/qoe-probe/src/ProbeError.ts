/** Codes of every error the probe raises or reports about itself. */
export const ErrorCodes = {
  /** attachProbe() got something that is neither an hls.js instance, a dash.js MediaPlayer, a Shaka Player nor a media element. */
  BAD_TARGET: 'QOE_ERR_BAD_TARGET',
  /** An option is out of range or of the wrong type. */
  BAD_OPTION: 'QOE_ERR_BAD_OPTION',
  /** A listener registered with probe.on() threw; the probe carried on. */
  LISTENER_THREW: 'QOE_ERR_LISTENER_THREW',
  /** The player reported an error (details in the event's `detail`). */
  PLAYER_ERROR: 'QOE_ERR_PLAYER',
  /** The media element reported an error (MediaError code in `detail`). */
  MEDIA_ERROR: 'QOE_ERR_MEDIA',
  /** The probe was used after destroy(). */
  DESTROYED: 'QOE_ERR_DESTROYED',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

export class ProbeError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.name = 'ProbeError';
    this.code = code;
  }
}
