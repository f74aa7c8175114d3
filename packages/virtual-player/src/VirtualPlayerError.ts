/** Every code a virtual player throws or records (cf. undici's UND_ERR_*): a user's mistake or what the network did. */
export const VirtualPlayerErrorCodes = {
  /** A bad option: URL, player, duration, a setting out of range or not modelled. */
  CONFIG: 'ERR_VPLAYER_CONFIG',
  /** A manifest that is not live HLS/DASH this player can play. */
  MANIFEST: 'ERR_VPLAYER_MANIFEST',
  /** An HTTP status other than 2xx, a reset or a timeout. */
  HTTP: 'ERR_VPLAYER_HTTP',
} as const;

export type VirtualPlayerErrorCode = (typeof VirtualPlayerErrorCodes)[keyof typeof VirtualPlayerErrorCodes];

export class VirtualPlayerError extends Error {
  override readonly name = 'VirtualPlayerError';
  readonly code: VirtualPlayerErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: VirtualPlayerErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(`${code}: ${message}`);
    this.code = code;
    this.details = details;
  }
}

export function isVirtualPlayerError(e: unknown): e is VirtualPlayerError {
  return e instanceof VirtualPlayerError;
}
