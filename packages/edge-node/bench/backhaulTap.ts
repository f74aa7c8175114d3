// A TCP relay between the edge and its origin that counts what crosses it: the backhaul's bytes
// on the wire, whatever the edge's own counters say. Used by the soak to check its instrument.
import { createServer, connect, type Socket } from 'node:net';

export interface BackhaulTap {
  /** The origin's URL through the tap (give this to the edge). */
  url: string;
  /** Bytes the origin sent through the tap so far (response heads and bodies). */
  readonly down: number;
  close(): Promise<void>;
}

/** Relay every connection to `originUrl` (http, host:port) and count the origin's bytes. */
export async function startBackhaulTap(originUrl: string): Promise<BackhaulTap> {
  const target = new URL(originUrl);
  const port = Number(target.port || 80);
  let down = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    // Either side failing or closing ends both: nothing is left half open.
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    upstream.on('data', (d: Buffer) => (down += d.length));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('backhaul tap: no port');
  return {
    url: `http://127.0.0.1:${addr.port}${target.pathname === '/' ? '' : target.pathname}`,
    get down() {
      return down;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
