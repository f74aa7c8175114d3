import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parseBatch } from '../beacon/parseBatch.js';
import { parseEdgeReport } from '../beacon/parseEdgeReport.js';
import { WatchClock } from '../beacon/WatchClock.js';
import type { CollectorConfig } from '../config/CollectorConfig.js';
import { CollectorError, isCollectorError } from '../errors/CollectorError.js';
import type { CollectorErrorCode } from '../errors/CollectorErrorCode.js';
import { parseFleetFilter } from '../query/FleetFilter.js';
import { fleetQuery } from '../query/fleetQuery.js';
import { runsQuery } from '../query/runsQuery.js';
import { sessionQuery } from '../query/sessionQuery.js';
import { dimensionsQuery, sessionsQuery } from '../query/sessionsQuery.js';
import { createGroupWriter } from '../store/createGroupWriter.js';
import { openStore } from '../store/openStore.js';
import type { Store } from '../store/Store.js';
import { answerPreflight, applyCors } from './cors.js';
import { readBody } from './readBody.js';

/** What the collector counted since it started (GET /v1/health). */
export interface CollectorStats {
  /** Batches stored, and batches that were duplicates of stored ones (a resent beacon). */
  stored: number;
  duplicates: number;
  /** Session facts edges reported (POST /v1/edge). */
  edgeFacts: number;
  /** Requests refused, by error code. */
  refused: Partial<Record<CollectorErrorCode, number>>;
  /** Batches waiting for the store now. */
  pending: number;
  /** Transactions written, their mean size in batches, and their duration (the newest 1000), ms. */
  transactions: number;
  batchesPerTransaction: number | null;
  transactionMs: { p50: number; p99: number; max: number } | null;
}

export interface RunningCollector {
  url: string;
  config: CollectorConfig;
  store: Store;
  stats(): CollectorStats;
  /** Refuses new requests, answers the ones in progress, writes every accepted batch, closes the store. */
  close(): Promise<void>;
}

/** The beacon endpoint the probe's `beacon.url` points at. */
export const BEACON_PATH = '/v1/beacon';
/** Where ETHLE edges report what they did per session (`ethle-edge serve --collector`). */
export const EDGE_PATH = '/v1/edge';
const CONTENT_TYPES = /^(text\/plain|application\/json)\b/i;
const SESSION_PATH = /^\/v1\/sessions\/([^/]+)$/;

/**
 * Starts the collector's HTTP server: POST /v1/beacon takes the probe's batches (sendBeacon's
 * text/plain or fetch's application/json, CORS), validates each whole and answers only once it is
 * committed; GET /v1/fleet, /v1/sessions, /v1/sessions/{id}, /v1/runs, /v1/dimensions and
 * /v1/health answer queries (docs/interfaces.md, "Collector").
 */
export async function startCollector(
  config: CollectorConfig,
  o: { store?: Store; now?: () => number; log?: (line: string) => void } = {},
): Promise<RunningCollector> {
  const now = o.now ?? Date.now;
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const store = o.store ?? (await openStore(config.store));
  const writer = createGroupWriter(store, {
    maxPending: config.limits.maxPendingBatches,
    maxPerTransaction: config.limits.maxBatchesPerTransaction,
    minIntervalMs: config.limits.minTransactionIntervalMs,
  });
  const stats = { stored: 0, duplicates: 0, edgeFacts: 0, refused: {} as CollectorStats['refused'] };
  const snapshot = (): CollectorStats => {
    const w = writer.stats();
    const ms = [...w.writeMs].sort((a, b) => a - b);
    const q = (p: number) => Number(ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(2));
    return {
      ...stats,
      refused: { ...stats.refused },
      pending: writer.pending,
      transactions: w.transactions,
      batchesPerTransaction: w.transactions ? Number((w.batches / w.transactions).toFixed(2)) : null,
      transactionMs: ms.length ? { p50: q(0.5), p99: q(0.99), max: q(1) } : null,
    };
  };
  let closing = false;
  const watch = new WatchClock();

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: ServerResponse, e: CollectorError) => {
    stats.refused[e.code] = (stats.refused[e.code] ?? 0) + 1;
    const headers: Record<string, string> = {};
    if (e.code === 'COLLECTOR_ERR_BUSY') headers['Retry-After'] = '1';
    if (e.code === 'COLLECTOR_ERR_CLOSING' || e.code === 'COLLECTOR_ERR_TOO_LARGE') headers['Connection'] = 'close';
    send(res, e.status, { error: { code: e.code, message: e.message, ...e.details } }, headers);
  };

  async function beacon(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const type = req.headers['content-type'];
    if (type !== undefined && !CONTENT_TYPES.test(type))
      throw new CollectorError(
        'COLLECTOR_ERR_CONTENT_TYPE',
        `content-type must be text/plain (sendBeacon) or application/json, got ${JSON.stringify(type)}`,
      );
    const text = await readBody(req, config.limits.maxBodyBytes);
    const batch = parseBatch(text, now(), config.limits);
    watch.stamp(batch);
    const stored = await writer.submit(batch);
    if (stored) stats.stored += 1;
    else stats.duplicates += 1;
    send(res, 200, { stored, duplicate: !stored, session: batch.session, seq: batch.seq });
  }

  /** An edge's report of its sessions (packages/edge-node `--collector`): stored as it came. */
  async function edgeReport(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req, config.limits.maxBodyBytes * 16);
    const rows = parseEdgeReport(text, now(), 10_000);
    await store.writeEdgeFacts(rows);
    stats.edgeFacts += rows.length;
    send(res, 200, { stored: rows.length });
  }

  async function query(path: string, q: URLSearchParams, res: ServerResponse): Promise<void> {
    const limitOf = (name: string, def: number, max: number) => {
      const raw = q.get(name);
      q.delete(name);
      if (raw === null) return def;
      const n = Number(raw);
      if (!/^\d+$/.test(raw) || n > max)
        throw new CollectorError('COLLECTOR_ERR_BAD_QUERY', `${name}: must be a whole number 0..${max}, got ${JSON.stringify(raw)}`, {
          param: name,
        });
      return n;
    };
    if (path === '/v1/health') return send(res, 200, { ok: true, store: store.kind, schema: await store.schemaVersion(), ...snapshot() });
    if (path === '/v1/fleet') return send(res, 200, await fleetQuery(store, parseFleetFilter(q, now())));
    if (path === '/v1/dimensions') return send(res, 200, await dimensionsQuery(store, 200));
    if (path === '/v1/sessions') {
      const limit = limitOf('limit', 50, config.limits.maxSessionsListed);
      const offset = limitOf('offset', 0, 10_000_000);
      return send(res, 200, { sessions: await sessionsQuery(store, parseFleetFilter(q, now()), limit, offset) });
    }
    if (path === '/v1/runs') {
      const limit = limitOf('limit', 20, 100);
      return send(res, 200, await runsQuery(store, parseFleetFilter(q, now()), limit, 5000));
    }
    const m = SESSION_PATH.exec(path);
    if (m) {
      const limit = limitOf('limit', 5000, 50_000);
      const session = decodeURIComponent(m[1]!);
      const d = await sessionQuery(store, session, limit);
      if (d === null) throw new CollectorError('COLLECTOR_ERR_NOT_FOUND', `no session ${JSON.stringify(session)} in the collector`);
      return send(res, 200, d);
    }
    throw new CollectorError(
      'COLLECTOR_ERR_NOT_FOUND',
      `no route ${path} (POST ${BEACON_PATH}; GET /v1/fleet, /v1/sessions, /v1/sessions/{id}, /v1/runs, /v1/dimensions, /v1/health)`,
    );
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://collector');
      try {
        if (!applyCors(req, res, config.corsOrigins)) {
          // Not an allowed origin: no CORS headers, so its page cannot read the answer either.
          throw new CollectorError('COLLECTOR_ERR_ORIGIN', `origin ${req.headers.origin} is not allowed (corsOrigins)`);
        }
        if (req.method === 'OPTIONS') return answerPreflight(res);
        if (closing) throw new CollectorError('COLLECTOR_ERR_CLOSING', 'the collector is shutting down; send again shortly');
        if (url.pathname === BEACON_PATH) {
          if (req.method !== 'POST') throw new CollectorError('COLLECTOR_ERR_METHOD', `${BEACON_PATH} takes POST`);
          return await beacon(req, res);
        }
        if (url.pathname === EDGE_PATH) {
          if (req.method !== 'POST') throw new CollectorError('COLLECTOR_ERR_METHOD', `${EDGE_PATH} takes POST`);
          return await edgeReport(req, res);
        }
        if (req.method !== 'GET' && req.method !== 'HEAD') throw new CollectorError('COLLECTOR_ERR_METHOD', `${url.pathname} takes GET`);
        return await query(url.pathname, url.searchParams, res);
      } catch (e) {
        if (res.headersSent) return;
        if (isCollectorError(e)) return refuse(res, e);
        log(`collector: unexpected error on ${req.method} ${url.pathname}: ${(e as Error)?.stack ?? String(e)}`);
        return refuse(res, new CollectorError('COLLECTOR_ERR_INTERNAL', 'unexpected error (logged by the collector)'));
      }
    })();
  });
  // A client that stops mid-body must not hold a socket forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e) => {
      void store.close();
      reject(e);
    });
    server.listen(config.port, config.host, resolve);
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let closed: Promise<void> | null = null;
  return {
    url: `http://${host}:${port}`,
    config,
    store,
    stats: snapshot,
    close() {
      closed ??= (async () => {
        closing = true;
        const stopped = new Promise<void>((r) => server.close(() => r()));
        server.closeIdleConnections();
        // Requests in progress get their answer (a beacon's after its commit); a keep-alive
        // connection a sender leaves open after that is closed, not waited for.
        await writer.drain();
        const grace = setTimeout(() => server.closeAllConnections(), 2000);
        await stopped;
        clearTimeout(grace);
        await store.close();
      })();
      return closed;
    },
  };
}
