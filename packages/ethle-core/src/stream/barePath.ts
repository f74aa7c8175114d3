/** A path without its query: the key a stream's window and the segment index use for a segment. */
export function barePath(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}
