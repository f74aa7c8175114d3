// Module-level: every request of both edges is tested against it.
const MANIFEST_RE = /\.(m3u8|mpd)$/i;

/** Whether a request path (without query) names a manifest: `.m3u8` or `.mpd`, in any case. */
export function isManifestPath(path: string): boolean {
  return MANIFEST_RE.test(path);
}
