import { performance } from 'node:perf_hooks';
import { FetchMeasure } from './FetchMeasure.js';
import type { OriginTransport, SegmentFetch } from './OriginTransport.js';
import { readWhole } from './readWhole.js';
import { statusError, toEdgeError } from './toEdgeError.js';

/**
 * One segment as one request on one connection (redirects on the origin followed). Never
 * rejects: a failure goes into the fill (its readers see it) and the report. Single-flow fetches
 * are the backhaul samples: the connection that carried it and its head's timing are noted.
 */
export async function fetchWhole(t: OriginTransport, f: SegmentFetch): Promise<void> {
  const { path, fill } = f;
  const t0 = performance.now();
  const span = t.flows.start(1);
  const sent = `${t.dispatcher.basePath}${path}`;
  const probe = t.connections.watch(sent, t0);
  const m = new FetchMeasure({ origin: t.name, path, kind: f.kind, sink: t.sink, span, probe, t0 });
  let inBody = false;
  try {
    const { res } = await t.dispatcher.get(path, { signal: f.signal.any });
    t.rtt.add('ttfb', m.responded(res.statusCode), Date.now());
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw statusError(path, res.statusCode, res.headers);
    }
    inBody = true;
    await readWhole(f, res, probe);
    m.report('ok', fill.entry.bytes);
  } catch (e) {
    const err = toEdgeError(e, { path, inBody, signal: f.signal, onBug: t.onBug });
    m.failed(err, fill.fail(err));
  } finally {
    t.connections.done(sent, probe);
  }
}
