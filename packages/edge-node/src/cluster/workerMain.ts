import { createEdgeConfig } from '../config/createEdgeConfig.js';
import type { EdgeConfigInput } from '../config/EdgeConfig.js';
import { startEdge } from '../startEdge.js';

/**
 * A worker edge of `serve --workers N` (a node:cluster worker): its config comes from the primary
 * in ETHLE_WORKER_CONFIG (validated there once already). Its listen() is shared with the other
 * workers through the primary. SIGTERM (the primary's, or the terminal's): drain, then exit.
 */
const raw = process.env.ETHLE_WORKER_CONFIG;
if (raw === undefined) throw new Error('workerMain runs as a cluster worker of ethle-edge serve --workers');
const edge = await startEdge(createEdgeConfig(JSON.parse(raw) as EdgeConfigInput));
const stop = (): void => {
  process.off('SIGTERM', stop);
  process.off('SIGINT', stop);
  void edge.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
