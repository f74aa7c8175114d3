/**
 * A short tag of a stream key for a session token (FNV-1a, 32 bits, hex): the token says which
 * stream its state is for without carrying the stream's path. Not a security boundary: the
 * token's MAC is.
 */
export function streamTag(streamKey: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < streamKey.length; i++) {
    h ^= streamKey.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
