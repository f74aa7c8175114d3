import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { EdgeError } from '../errors/EdgeError.js';
import { FetchMeasure } from './FetchMeasure.js';
import { contentRange, isStorable, keptHeaders, validators } from './originHeaders.js';
import type { OriginTransport, SegmentFetch } from './OriginTransport.js';
import { RangeAssembler } from './RangeAssembler.js';
import { readWhole } from './readWhole.js';
import type { SplitFetch } from './SegmentFetchOptions.js';
import { statusError, toEdgeError } from './toEdgeError.js';

/**
 * One segment as `parts` concurrent byte ranges on as many connections: each range is in slow
 * start on its own, so together they open `parts` windows at once — the paper's parallel
 * connections applied inside the segment a receiver is (about to be) waiting for, when the edge
 * has no lead yet. The last range is open-ended (the estimate may be short); ranges past the
 * real end come back 416 and count as empty. An origin that ignores Range answers part 0 with
 * the whole object (200): that response is used and the other parts are dropped. Every part
 * must name the same object version (total length, ETag, Last-Modified) as part 0: an object
 * replaced between the requests is never stitched together from two versions. Never rejects.
 */
export async function fetchRanges(t: OriginTransport, f: SegmentFetch, split: SplitFetch): Promise<void> {
  const { path, fill } = f;
  const { entry } = fill;
  const { parts } = split;
  const t0 = performance.now();
  // Counted as `parts` flows throughout, even when an origin that ignores Range sends the whole
  // object on one: that one start-segment fetch then looks like a burst and is not a sample.
  const m = new FetchMeasure({ origin: t.name, path, kind: f.kind, sink: t.sink, parts, span: t.flows.start(parts), t0 });
  const size = Math.ceil(split.approxBytes / parts);
  const aborts = Array.from({ length: parts }, () => new AbortController());
  const pending = aborts.map((ac, i) =>
    t.dispatcher.request(path, {
      signal: AbortSignal.any([ac.signal, f.signal.any]),
      headers: { range: i === parts - 1 ? `bytes=${i * size}-` : `bytes=${i * size}-${(i + 1) * size - 1}` },
    }),
  );
  for (const p of pending) p.catch(() => undefined); // each is awaited below; none may go unhandled
  const abortFrom = (from: number) => {
    for (let i = from; i < parts; i++) aborts[i]!.abort();
  };
  let inBody = false;
  try {
    const first = await pending[0]!;
    const status = first.statusCode;
    t.rtt.add('ttfb', m.responded(status), Date.now());
    if (status === 200) {
      abortFrom(1);
      t.rangesIgnored();
      inBody = true;
      await readWhole(f, first);
      m.report('ok', entry.bytes, 1);
      return;
    }
    const r0 = status === 206 ? contentRange(first.headers) : undefined;
    if (r0 === undefined || r0.start !== 0) {
      await first.body.dump();
      throw statusError(path, status, first.headers, ' to a byte range');
    }
    const total = r0.total;
    if (total > fill.cache.maxBytes) {
      await first.body.dump();
      throw new EdgeError('ERR_EDGE_CACHE_FULL', `${path} (${total} bytes) is larger than the byte budget: not fetched in parts`, {
        path,
        size: total,
      });
    }
    f.signal.expect(total);
    const version = validators(first.headers);
    const storable = isStorable(first.headers);
    if (storable) await fill.reserve(total);
    entry.setHeaders(keptHeaders(first.headers), total);
    inBody = true;
    const asm = new RangeAssembler(parts, (c) => entry.push(c));
    const read = async (i: number, res: Dispatcher.ResponseData, want: number): Promise<void> => {
      let got = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        f.signal.received(chunk.length);
        got += chunk.length;
        if (got > want) throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `origin sent more than range ${i} of ${path}`, { path });
        // Not admitted: a later part's bytes wait in the assembler, and count in the budget there.
        if (!entry.admitted) await fill.room(chunk.length);
        asm.chunk(i, chunk);
      }
      if (got !== want)
        throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `range ${i} of ${path}: ${got} of ${want} bytes`, {
          path,
          bytes: got,
          expected: want,
        });
      asm.end(i);
    };
    const tasks = [read(0, first, r0.end - r0.start + 1)];
    for (let i = 1; i < parts; i++) {
      const start = i * size;
      tasks.push(
        pending[i]!.then(async (res) => {
          if (res.statusCode === 416 && start >= total) {
            await res.body.dump();
            asm.end(i); // past the real end: nothing in this range
            return;
          }
          const r = res.statusCode === 206 ? contentRange(res.headers) : undefined;
          if (r === undefined || r.start !== start || r.total !== total) {
            await res.body.dump();
            throw new EdgeError('ERR_EDGE_ORIGIN_STATUS', `origin answered ${res.statusCode} to range ${i} of ${path}`, {
              path,
              status: res.statusCode,
            });
          }
          if (validators(res.headers) !== version) {
            await res.body.dump();
            throw new EdgeError('ERR_EDGE_ORIGIN_INCONSISTENT', `range ${i} of ${path} is from another version of the object`, {
              path,
              part: i,
            });
          }
          await read(i, res, r.end - r.start + 1);
        }),
      );
    }
    try {
      await Promise.all(tasks);
    } catch (e) {
      abortFrom(0);
      await Promise.allSettled(tasks);
      throw e;
    }
    if (!asm.complete) throw new EdgeError('ERR_EDGE_ORIGIN_TRUNCATED', `segment ${path}: ranges incomplete`, { path });
    fill.finish(total, storable);
    m.report('ok', entry.bytes);
  } catch (e) {
    abortFrom(0);
    const err = toEdgeError(e, { path, inBody, signal: f.signal, onBug: t.onBug });
    m.failed(err, fill.fail(err));
  }
}
