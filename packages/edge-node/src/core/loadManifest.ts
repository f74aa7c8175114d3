import { EdgeError } from '../errors/EdgeError.js';
import { loadDashManifest } from './loadDashManifest.js';
import { loadHlsManifest } from './loadHlsManifest.js';
import type { ManifestView } from './ManifestView.js';

export interface LoadManifestOptions {
  /** Absolute origin URL of the manifest. */
  manifestUrl: string;
  /** Origin base URL (config), to turn absolute segment URLs into origin-relative paths. */
  originBase: string;
  edgePathPrefix: string;
  /**
   * What the previous version carried forward (HLS history for the 3 × target duration rule),
   * never the previous view itself: views must not reference each other, or every version of a
   * stream stays reachable.
   */
  previousCarry: unknown;
}

const HLS_RE = /^\uFEFF?#EXTM3U/;
const MPD_RE = /<MPD[\s>]/;

/** Parse one origin manifest version with @ethle/core. Throws (EthleError / EdgeError) on garbage. */
export function loadManifest(text: string, o: LoadManifestOptions): ManifestView {
  if (HLS_RE.test(text)) return loadHlsManifest(text, o);
  if (MPD_RE.test(text)) return loadDashManifest(text, o);
  throw new EdgeError('ERR_EDGE_MANIFEST_UNPARSABLE', 'neither an HLS playlist nor a DASH MPD');
}
