import type { ServerResponse } from 'node:http';
import type { EdgeEvents } from '../../events/EdgeEvents.js';
import { HEADERS } from '../../http/HEADERS.js';
import { retryAfterFor, statusFor } from '../../http/sendError.js';
import type { EdgeMetrics } from '../../metrics/EdgeMetrics.js';
import type { LiveStream, Version } from '../../stream/LiveStream.js';
import { manifestFreshness } from '../manifestFreshness.js';
import type { ManifestHeaders } from './manifestHeaders.js';
import { refuseManifest } from './refuseManifest.js';

/**
 * A broken or silent origin manifest: the last good version is served for a bounded time
 * (`manifestStaleMs`), marked stale (X-Ethle-Manifest-Stale: its age), then the origin's error.
 * One 'manifest-stale' event per failure episode and stream, not per receiver request.
 */
export class StaleManifestGate {
  readonly #o: { metrics: EdgeMetrics; events: EdgeEvents; manifestStaleMs: number };
  /** The episode last reported per stream: freed with the stream. */
  readonly #reported = new WeakMap<LiveStream, string>();

  constructor(o: { metrics: EdgeMetrics; events: EdgeEvents; manifestStaleMs: number }) {
    this.#o = o;
  }

  /** Whether `version` may be served (headers marked when stale); false: `res` got the origin's error. */
  admit(res: ServerResponse, stream: LiveStream, version: Version, headers: ManifestHeaders, nowMs: number): boolean {
    const { metrics, events, manifestStaleMs } = this.#o;
    const fresh = manifestFreshness({
      nowMs,
      fetchedAtMs: version.fetchedAtMs,
      lastError: stream.lastError,
      waitingSinceMs: stream.originWaitingSinceMs,
      segmentSeconds: version.view.segmentSeconds,
      multivariant: version.view.kind === 'hls-multivariant',
      manifestStaleMs,
    });
    if (fresh.state === 'broken') {
      refuseManifest(
        res,
        metrics,
        statusFor(fresh.error),
        `origin manifest broken for ${Math.round(fresh.ageMs / 1000)} s: ${fresh.error.code}`,
        fresh.error.code,
        retryAfterFor(fresh.error),
      );
      return false;
    }
    if (fresh.state === 'stale') {
      headers[HEADERS.manifestStale] = (fresh.ageMs / 1000).toFixed(1);
      metrics.staleManifests.inc({ stream: stream.key });
      // One event per episode: the version's fetch time and the reason name it.
      const episode = `${version.fetchedAtMs}|${fresh.code}`;
      if (this.#reported.get(stream) !== episode) {
        this.#reported.set(stream, episode);
        events.emit('manifest-stale', { stream: stream.key, ageMs: fresh.ageMs, error: fresh.code });
      }
    }
    return true;
  }
}
