import { EthleError } from '../errors/EthleError.js';
import { loadDashManifest } from './loadDashManifest.js';
import { loadHlsManifest } from './loadHlsManifest.js';
import type { LoadManifestOptions } from './LoadManifestOptions.js';
import type { ManifestView } from './ManifestView.js';

export type { LoadManifestOptions };

const HLS_RE = /^\uFEFF?#EXTM3U/;
const MPD_RE = /<MPD[\s>]/;

/**
 * Parse one origin manifest version into the view both edges work from (what segments it lists,
 * how to hold it, when to poll again). Throws EthleError on garbage, so a broken version never
 * replaces a good one. A BOM before either format is allowed.
 */
export function loadManifest(text: string, o: LoadManifestOptions): ManifestView {
  if (HLS_RE.test(text)) return loadHlsManifest(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, o);
  if (MPD_RE.test(text)) return loadDashManifest(text, o);
  throw new EthleError('ERR_MANIFEST_UNKNOWN', 'neither an HLS playlist nor a DASH MPD');
}
