import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { currentPathway } from '../fleet/FleetSteering.js';
import { CORS, CORS_PREFLIGHT } from '../http/HEADERS.js';
import { SteeringService } from './SteeringService.js';
import type { SteeringServiceConfig } from './SteeringServiceConfig.js';

export interface RunningSteeringService {
  /** Base URL it listens on; players' steering URI is `${url}/steering`. */
  url: string;
  service: SteeringService;
  close(): Promise<void>;
}

/**
 * The steering service over HTTP: GET /steering (HLS `_HLS_pathway`, DASH `_DASH_pathway`),
 * GET /status (each edge's health and load, JSON), GET /healthz. Resolves once it listens and
 * has probed the edges once, so its first answer already reflects them.
 */
export async function startSteeringService(
  config: SteeringServiceConfig,
  onOrder?: (order: string[]) => void,
  random?: () => number,
): Promise<RunningSteeringService> {
  const service = new SteeringService(config, onOrder, random);
  const server: Server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS_PREFLIGHT).end();
      return;
    }
    const u = new URL(req.url ?? '/', 'http://steer');
    let body: string;
    if (req.method !== 'GET') {
      res.writeHead(405, { allow: 'GET' }).end();
      return;
    } else if (u.pathname === '/steering') {
      body = JSON.stringify(service.manifest(currentPathway(u.searchParams), u.searchParams.has('_DASH_pathway') ? 'dash' : 'hls'));
    } else if (u.pathname === '/status') {
      body = JSON.stringify({ order: service.order, edges: service.status() });
    } else if (u.pathname === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
      return;
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res
      .writeHead(200, {
        ...CORS,
        'content-type': 'application/json',
        'cache-control': 'no-store',
        'content-length': Buffer.byteLength(body),
      })
      .end(body);
  });
  await service.probe();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const a = server.address() as AddressInfo;
  return {
    url: `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`,
    service,
    close: () =>
      new Promise<void>((resolve) => {
        service.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
