import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/** One UE measurement in MEC 012 / TS 36.133 index units (rsrp 0..97, rsrq 0..34). */
export interface MockMeasurement {
  rsrp: number;
  rsrq: number;
}

export interface MockRniServer {
  /** Base URL of the RNI API (…/rni/v2). */
  url: string;
  /** Send a MeasRepUeNotification for this UE IPv4 address to every subscriber; resolves once delivered. */
  report(ueIpv4: string, m: MockMeasurement): Promise<void>;
  subscriptionCount(): number;
  close(): Promise<void>;
}

/**
 * A small ETSI GS MEC 012 Radio Network Information service for tests: accepts
 * MeasRepUeSubscription (POST /rni/v2/subscriptions → 201 with _links.self), deletes them, and
 * pushes MeasRepUeNotification on demand.
 */
export async function startMockRniServer(opts: { port?: number; host?: string } = {}): Promise<MockRniServer> {
  const subs = new Map<string, string>();
  let next = 1;
  let base = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      if (req.method === 'POST' && path === '/rni/v2/subscriptions') {
        let body: { subscriptionType?: unknown; callbackReference?: unknown };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          res.writeHead(400, { 'content-type': 'application/problem+json' }).end('{"title":"bad JSON"}');
          return;
        }
        if (body.subscriptionType !== 'MeasRepUeSubscription' || typeof body.callbackReference !== 'string') {
          res.writeHead(400, { 'content-type': 'application/problem+json' }).end('{"title":"unsupported subscription"}');
          return;
        }
        const id = String(next++);
        subs.set(id, body.callbackReference);
        const href = `${base}/subscriptions/${id}`;
        res.writeHead(201, { 'content-type': 'application/json', location: href });
        res.end(JSON.stringify({ ...body, _links: { self: { href } } }));
        return;
      }
      const m = /^\/rni\/v2\/subscriptions\/(\d+)$/.exec(path);
      if (req.method === 'DELETE' && m !== null && subs.delete(m[1]!)) {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const addr = server.address() as AddressInfo;
  base = `http://127.0.0.1:${addr.port}/rni/v2`;

  return {
    url: base,
    subscriptionCount: () => subs.size,
    async report(ueIpv4, meas) {
      const notification = {
        notificationType: 'MeasRepUeNotification',
        associateId: [{ type: 1, value: ueIpv4 }],
        ecgi: { cellId: '0000001', plmn: { mcc: '001', mnc: '01' } },
        rsrp: meas.rsrp,
        rsrq: meas.rsrq,
        trigger: 1,
        timeStamp: { seconds: Math.floor(Date.now() / 1000), nanoSeconds: 0 },
      };
      await Promise.all(
        [...subs.values()].map(async (cb) => {
          const res = await request(cb, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(notification),
          });
          await res.body.dump();
          if (res.statusCode >= 300) throw new Error(`subscriber ${cb} answered ${res.statusCode}`);
        }),
      );
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
