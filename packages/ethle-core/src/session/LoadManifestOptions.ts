/** How to load one manifest version: where it came from, how to route, what the last version carried. */
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
