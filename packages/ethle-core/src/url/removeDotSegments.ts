// Fast check: no "." or ".." segment anywhere → nothing to remove (the common case for playlists).
const DOT_SEGMENT_RE = /(?:^|\/)\.\.?(?:\/|$)/;

/** RFC 3986 §5.2.4 remove_dot_segments. */
export function removeDotSegments(path: string): string {
  if (!DOT_SEGMENT_RE.test(path)) return path;
  let input = path;
  let output = '';
  while (input.length > 0) {
    if (input.startsWith('../')) input = input.slice(3);
    else if (input.startsWith('./')) input = input.slice(2);
    else if (input.startsWith('/./')) input = input.slice(2);
    else if (input === '/.') input = '/';
    else if (input.startsWith('/../') || input === '/..') {
      input = '/' + input.slice(input === '/..' ? 3 : 4);
      const cut = output.lastIndexOf('/');
      output = cut < 0 ? '' : output.slice(0, cut);
    } else if (input === '.' || input === '..') input = '';
    else {
      const next = input.indexOf('/', input.startsWith('/') ? 1 : 0);
      const seg = next < 0 ? input : input.slice(0, next);
      output += seg;
      input = input.slice(seg.length);
    }
  }
  return output;
}
