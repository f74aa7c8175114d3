import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { EdgeError } from '../errors/EdgeError.js';
import { BURST_BYTES, type ConnectionProbe } from './ConnectionWatch.js';
import { contentLength, isStorable, keptHeaders } from './originHeaders.js';
import type { SegmentFetch } from './OriginTransport.js';

/**
 * A 200 response's body into its fill, checked against its Content-Length, then finished; every
 * chunk counted on the fetch's clock (FetchSignal.received). With a probe, the time its first
 * BURST_BYTES (or half a smaller object) took is noted there: how a window opens shows in these
 * bytes; a large object's whole time is the bottleneck's.
 */
export async function readWhole(
  f: Pick<SegmentFetch, 'path' | 'fill' | 'signal'>,
  res: Dispatcher.ResponseData,
  probe?: ConnectionProbe,
): Promise<void> {
  const { path, fill, signal } = f;
  const { entry } = fill;
  const expected = contentLength(res.headers);
  const storable = isStorable(res.headers);
  if (expected !== undefined) signal.expect(expected);
  await fill.open(keptHeaders(res.headers), expected, storable);
  const burst = Math.min(BURST_BYTES, Math.floor((expected ?? 2 * BURST_BYTES) / 2));
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    signal.received(chunk.length);
    if (expected !== undefined && entry.bytes + chunk.length > expected) {
      res.body.destroy();
      throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `origin sent more than Content-Length for ${path}`, { path });
    }
    // Hot path: an admitted entry has its room reserved, and skips the call.
    if (!entry.admitted) await fill.room(chunk.length);
    entry.push(chunk);
    if (probe !== undefined && probe.burstAtMs === undefined && entry.bytes >= burst)
      Object.assign(probe, { burstBytes: burst, burstAtMs: performance.now() });
  }
  fill.finish(expected, storable);
}
