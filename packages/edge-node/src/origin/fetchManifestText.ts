import type { EntryHeaders } from '../cache/CacheEntry.js';
import { EdgeError } from '../errors/EdgeError.js';
import { FetchMeasure } from './FetchMeasure.js';
import { contentLength, keptHeaders } from './originHeaders.js';
import type { OriginTransport } from './OriginTransport.js';
import { statusError, toEdgeError } from './toEdgeError.js';

/** A manifest larger than this is refused (ERR_EDGE_ORIGIN_TOO_LARGE): it is read whole. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/** A manifest's text, the headers kept of it, and the path it finally came from. */
export interface ManifestText {
  text: string;
  headers: EntryHeaders;
  /** Where the text came from after same-origin redirects: relative URIs in it resolve against this. */
  path: string;
}

export interface ManifestFetchOptions {
  /** The caller's: a TimeoutError reason is the origin's timeout, any other abort a cancellation. */
  signal?: AbortSignal | undefined;
  /** A blocking playlist reload: it waits at the origin for the next part. */
  blocking?: boolean | undefined;
}

/**
 * GET a manifest as text, not scheduled behind segments (manifests are small and urgent),
 * following same-origin redirects, bounded to MAX_MANIFEST_BYTES and checked against its
 * Content-Length. Reported as kind 'manifest', once, after the fetch's own error path: a bug in
 * what the report feeds is not taken for an origin fault. Rejects with the edge's error; a bug of
 * the edge's own (a TypeError, …) is ERR_EDGE_INTERNAL, reported to `onBug` once. What escapes
 * raw (a throw from the report itself) is the caller's boundary's (OriginClient.fetchText).
 */
export async function fetchManifestText(
  t: Pick<OriginTransport, 'name' | 'dispatcher' | 'rtt' | 'sink' | 'onBug'>,
  path: string,
  o: ManifestFetchOptions = {},
): Promise<ManifestText> {
  const { signal } = o;
  const m = new FetchMeasure({ origin: t.name, path, kind: 'manifest', sink: t.sink });
  let bytes = 0;
  let inBody = false;
  let got: ManifestText;
  try {
    const { res, path: finalPath } = await t.dispatcher.get(path, { signal });
    const ttfb = m.responded(res.statusCode);
    // A blocking playlist reload waits at the origin for the next part: its first byte says
    // nothing about the round trip.
    if (o.blocking !== true) t.rtt.add('ttfb', ttfb, Date.now());
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw statusError(path, res.statusCode, res.headers);
    }
    inBody = true;
    const expected = contentLength(res.headers);
    if (expected !== undefined && expected > MAX_MANIFEST_BYTES) {
      res.body.destroy();
      throw new EdgeError('ERR_EDGE_ORIGIN_TOO_LARGE', `manifest ${path} exceeds ${MAX_MANIFEST_BYTES} bytes`, { path });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > MAX_MANIFEST_BYTES) {
        res.body.destroy();
        throw new EdgeError('ERR_EDGE_ORIGIN_TOO_LARGE', `manifest ${path} exceeds ${MAX_MANIFEST_BYTES} bytes`, { path });
      }
      chunks.push(chunk);
    }
    if (expected !== undefined && bytes !== expected) {
      throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `manifest ${path}: ${bytes} of ${expected} bytes`, { path, bytes, expected });
    }
    got = { text: Buffer.concat(chunks).toString('utf8'), headers: keptHeaders(res.headers), path: finalPath };
  } catch (e) {
    // The caller's signal: a timeout is the origin's, anything else (the stream closed while its
    // blocking reload waited at the origin) a cancellation — not an unreachable origin.
    const aborted = signal?.aborted === true && !(e instanceof EdgeError);
    const timedOut = aborted && (signal.reason as { name?: string } | undefined)?.name === 'TimeoutError';
    const err = !aborted
      ? toEdgeError(e, { path, inBody, onBug: t.onBug, where: 'manifest fetch' })
      : timedOut
        ? new EdgeError('ERR_EDGE_ORIGIN_TIMEOUT', `origin manifest ${path} timed out`, { path, timeout: 'deadline' }, { cause: e })
        : new EdgeError('ERR_EDGE_CANCELLED', `manifest fetch of ${path} cancelled: ${String(signal.reason)}`, { path }, { cause: e });
    m.failed(err, bytes);
    throw err;
  }
  m.report('ok', bytes);
  return got;
}
