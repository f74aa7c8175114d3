import { originKey } from '../url/originKey.js';
import { resolveUrl } from '../url/resolveUrl.js';
import { splitUrl } from '../url/splitUrl.js';

/**
 * The origin-relative path (+query) of a manifest URI, or undefined when it points elsewhere
 * (another host: the core router leaves it absolute and the player fetches it directly). Origins
 * compare as the core router compares them (originKey), so what it routes to the edge is prefetched.
 */
export function originPath(uri: string, manifestUrl: string, originBase: string): string | undefined {
  let abs;
  let base;
  try {
    abs = splitUrl(resolveUrl(uri, manifestUrl));
    base = splitUrl(originBase);
  } catch {
    return undefined;
  }
  if (originKey(abs) !== originKey(base)) return undefined;
  const basePath = base.path === '/' ? '' : base.path.replace(/\/+$/, '');
  if (!abs.path.startsWith(basePath)) return undefined;
  return abs.path.slice(basePath.length) + (abs.query === undefined ? '' : `?${abs.query}`);
}
