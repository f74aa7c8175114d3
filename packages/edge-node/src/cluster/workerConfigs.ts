import type { EdgeConfigInput } from '../config/EdgeConfig.js';

/**
 * One box, every core (issue 21): the configs of the local parent tier and of the N worker edges
 * behind it, from the operator's one config. The parent owns the origin flows (one GET per
 * segment for the whole box) and never holds; it listens on loopback only. The workers are the
 * edge the receivers see — holding (whole segments or parts), steering, session tokens, TLS —
 * with the parent as origin. With `holdParts` the parent passes low-latency streams through
 * (holdParts 0: parts, blocking reloads and delta updates answered from its own view) and the
 * workers hold their N parts behind it.
 */
export function workerConfigs(input: EdgeConfigInput, parentUrl: string | undefined): { parent: EdgeConfigInput; worker: EdgeConfigInput } {
  const {
    fleet: _fleet,
    sessionTokens: _tokens,
    tls: _tls,
    hold: _hold,
    host: _host,
    port: _port,
    maxConnections: _mc,
    maxConnectionsPerClient: _mcc,
    egressCapacityMbps: _cap,
    holdParts,
    ...shared
  } = input;
  const parent: EdgeConfigInput = {
    ...shared,
    role: 'parent',
    host: '127.0.0.1',
    port: 0,
    ...(holdParts === undefined ? {} : { holdParts: 0 }),
  };
  const origins = input.origins ?? (input.origin === undefined ? [] : [{ name: 'origin', url: input.origin }]);
  const single = input.origin !== undefined;
  // The workers reach each origin through the parent, under the same path prefix it serves it on.
  // The workers are what the operator configured (an edge, or a parent box's fan-out).
  const worker: EdgeConfigInput = { ...input, role: input.role ?? 'edge' };
  delete worker.origin;
  delete worker.origins;
  delete worker.originPublicUrl;
  if (single) worker.origin = parentUrl ?? 'http://127.0.0.1:1';
  else
    worker.origins = origins.map((o) => ({
      name: o.name,
      url: `${parentUrl ?? 'http://127.0.0.1:1'}/${o.name}`,
      ...(o.publicUrl === undefined ? {} : { publicUrl: o.publicUrl }),
    }));
  return { parent, worker };
}
