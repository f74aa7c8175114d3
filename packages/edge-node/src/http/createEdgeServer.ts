import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { EdgeConfig } from '../config/EdgeConfig.js';
import { EdgeError } from '../errors/EdgeError.js';
import { ReceiverConnections } from './ReceiverConnections.js';

/** Node's parser and timeout error codes → the status a client is told before the socket closes. */
const CLIENT_ERROR_STATUS: Record<string, string> = {
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_URI_TOO_LONG: '414 URI Too Long',
};

/** Warnings about refused connections at most this often (a flood must not flood the log). */
const WARN_EVERY_MS = 10_000;

/**
 * The edge's receiver-facing server (HTTP, or HTTPS with `tls`) and its limits, in one place: how
 * long a client may take to send its request headers (slowloris), how long an idle keep-alive
 * connection stays, how many connections may be open at all (below the process's fd limit, so
 * origin connections and files always get descriptors), and what a malformed or timed-out request
 * is told, how many one client may hold (`maxConnectionsPerClient`), and a drain that lets
 * transfers finish (ReceiverConnections). Counts what it refuses (`onRefused`) and says so in the
 * log, rate-limited.
 */
export function createEdgeServer(
  config: EdgeConfig,
  tls: { key: Buffer; cert: Buffer } | undefined,
  onRequest: (req: IncomingMessage, res: ServerResponse) => void,
  log: Logger,
  onRefused: (reason: string) => void,
): { server: Server; connections: ReceiverConnections } {
  // Node checks the headers/request timeouts every connectionsCheckingInterval (default 30 s):
  // a slowloris client would hold its socket that long past the limit.
  const opts: ServerOptions = { connectionsCheckingInterval: Math.min(1000, Math.max(50, config.requestHeadersTimeoutMs / 4)) };
  let server: Server;
  if (tls === undefined) server = createHttpServer(opts);
  else {
    try {
      server = createHttpsServer({ ...opts, ...tls }) as unknown as Server;
    } catch (e) {
      throw new EdgeError(
        'ERR_EDGE_CONFIG_INVALID',
        `--tls-key/--tls-cert: not a usable PEM key and certificate pair: ${(e as Error).message}`,
        { option: 'tls' },
      );
    }
  }
  const warn = applyServerLimits(server, config, log, onRefused);
  const connections = new ReceiverConnections(server, {
    maxPerClient: config.maxConnectionsPerClient,
    onRefused: (client) => warn('per_client', 'connection refused: maxConnectionsPerClient reached', { client }),
  });
  // One listener: a response is busy from its first moment (before the router may answer).
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    connections.track(req, res);
    onRequest(req, res);
  });
  return { server, connections };
}

type Warn = (reason: string, msg: string, extra?: Record<string, unknown>) => void;

function applyServerLimits(server: Server, config: EdgeConfig, log: Logger, onRefused: (reason: string) => void): Warn {
  server.headersTimeout = config.requestHeadersTimeoutMs;
  // The whole request (headers; receivers send no body) — not the response, which may be long.
  server.requestTimeout = config.requestHeadersTimeoutMs + 1000;
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.maxConnections = config.maxConnections;
  // A connection with no traffic either way for this long is dead (a receiver gone without FIN).
  server.timeout = Math.max(config.keepAliveTimeoutMs, 120_000);

  const lastWarn = new Map<string, number>();
  const warn: Warn = (reason, msg, extra) => {
    onRefused(reason);
    const t = Date.now();
    if (t - (lastWarn.get(reason) ?? 0) < WARN_EVERY_MS) return;
    lastWarn.set(reason, t);
    log.warn({ reason, maxConnections: config.maxConnections, maxConnectionsPerClient: config.maxConnectionsPerClient, ...extra }, msg);
  };
  server.on('drop', () => warn('max_connections', 'connection refused: maxConnections reached'));
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const code = err.code ?? '';
    onRefused(code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'timeout' : 'malformed');
    if (code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = CLIENT_ERROR_STATUS[code] ?? '400 Bad Request';
    // Answer, then close for good: a half-closed socket would wait on a client that may never
    // close its side.
    socket.write(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`, () => socket.destroy());
  });
  return warn;
}
