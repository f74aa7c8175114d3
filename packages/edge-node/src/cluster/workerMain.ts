import { createEdgeConfig } from '../config/createEdgeConfig.js';
import type { EdgeConfigInput } from '../config/EdgeConfig.js';
import { startEdge, type RunningEdge } from '../startEdge.js';
import { BoxView } from './BoxView.js';
import { isToWorker, type ToPrimary } from './clusterMessages.js';

/**
 * A worker edge of `serve --workers N` (a node:cluster worker): its config comes from the primary
 * in ETHLE_WORKER_CONFIG (validated there once already). Its listen() is shared with the other
 * workers through the primary. SIGTERM or SIGINT (the operator's, to this worker or its process
 * group) or the primary's `drain`: stop accepting, let transfers finish within drainMs, exit 0.
 * Further signals during the drain change nothing (the drain is bounded already).
 */
const raw = process.env.ETHLE_WORKER_CONFIG;
if (raw === undefined || process.send === undefined) throw new Error('workerMain runs as a cluster worker of ethle-edge serve --workers');
const send = (m: ToPrimary): void => {
  // The channel is gone when the primary is: nothing to tell it.
  if (process.connected) process.send!(m);
};
const box = new BoxView(send, 2000);
// Listening for the primary from the first moment: a drain asked for while the edge starts is
// carried out once it has started.
let stopping = false;
let edge: RunningEdge | undefined;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void edge?.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('message', (m: unknown) => {
  if (!isToWorker(m)) return;
  if (m.ethle === 'drain') stop();
  else if (m.ethle === 'report?') {
    if (edge === undefined) return;
    void edge.metrics.registry.getMetricsAsJSON().then(
      (metrics) => {
        // Functions (collect) do not cross the channel; the aggregate needs only the values.
        send({ ethle: 'report', id: m.id, report: { metrics: metrics.map(({ collect: _c, ...x }) => x), load: edge!.load() } });
      },
      () => undefined,
    ); // unanswered: the primary counts this worker out (ethle_workers{state="answered"})
  } else box.onMessage(m);
});
edge = await startEdge(createEdgeConfig(JSON.parse(raw) as EdgeConfigInput), { box: () => box.ask() });
if (stopping) {
  stopping = false;
  stop();
}
