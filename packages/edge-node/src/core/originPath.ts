import { originKey, resolveUrl, splitUrl } from '@ethle/core';

/**
 * The origin-relative path (+query) of a manifest URI, or undefined when it points elsewhere
 * (another host: the core router leaves it absolute and the player fetches it directly). Origins
 * compare as the core router compares them (originKey), so what it routes to the edge is prefetched.
 */
export function originPath(uri: string, manifestUrl: string, originBase: string): string | undefined {
  let abs: URL;
  try {
    abs = new URL(resolveUrl(uri, manifestUrl));
  } catch {
    return undefined;
  }
  const base = new URL(originBase);
  if (originKey(splitUrl(abs.href)) !== originKey(splitUrl(base.href))) return undefined;
  const basePath = base.pathname === '/' ? '' : base.pathname;
  if (!abs.pathname.startsWith(basePath)) return undefined;
  return abs.pathname.slice(basePath.length) + abs.search;
}
