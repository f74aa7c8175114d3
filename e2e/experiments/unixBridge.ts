import { connect, createServer, type Socket } from 'node:net';

/** Connections the bridge carries at once: a relay's agent keeps at most 64 to its source. */
const MAX_CONNECTIONS = 256;

/**
 * A Unix socket at `path` whose every connection is piped to `host:port` from this process's
 * network namespace. A testbed's origin namespace has no route to the machine's own network; a
 * relaying origin there reaches the user's source through this socket (a file, so any namespace
 * can open it), and the backhaul's TCP stays the relay's.
 */
export async function startUnixBridge(path: string, host: string, port: number): Promise<{ close(): Promise<void> }> {
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, host);
    open.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream).pipe(client);
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return {
    close: async () => {
      const closed = new Promise<void>((r) => server.close(() => r()));
      for (const s of open) s.destroy();
      await closed;
    },
  };
}
