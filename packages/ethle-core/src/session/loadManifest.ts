import { EthleError } from '../errors/EthleError.js';
import { loadDashManifest } from './loadDashManifest.js';
import { loadHlsManifest } from './loadHlsManifest.js';
import type { ManifestView } from './ManifestView.js';

export interface LoadManifestOptions {
  /** Absolute origin URL of the manifest. */
  manifestUrl: string;
  /** Origin base URL (config), to turn absolute segment URLs into origin-relative paths. */
  originBase: string;
  /**
   * Where the held text's URIs point: 'edge' routes them back to the edge under this path prefix
   * (the Node edge: players fetch from it); 'none' leaves them as the origin wrote them (the
   * service worker sees every request of its pages, nothing needs routing).
   */
  routing: 'edge' | 'none';
  edgePathPrefix: string;
  /** The time of loading (epoch ms): a DASH version is validated by holding it at this instant. */
  nowMs: number;
  /**
   * What the previous version carried forward (HLS history for the 3 × target duration rule),
   * never the previous view itself: views must not reference each other, or every version of a
   * stream stays reachable.
   */
  previousCarry: unknown;
}

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
