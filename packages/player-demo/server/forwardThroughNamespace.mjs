// The host's browser has no route into the testbed's network namespaces. This carries the page's
// connections there: on the host, a TCP listener per server (what the page's URLs name) hands each
// connection over a Unix socket (file system paths cross network namespaces) to this script running
// inside the client namespace, which opens a real kernel TCP connection from there — over the
// emulated radio (and, to the origin, the backhaul). The host hop is loopback and a socket pair.
//   ip netns exec NS node forwardThroughNamespace.mjs SOCKET_PATH TARGET_HOST TARGET_PORT [LOCAL_ADDRESS]
// LOCAL_ADDRESS picks the client address the connections leave from: in a cell of several users
// (netlab's `cell`), which user's radio link they cross.
import { connect, createServer } from 'node:net';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Pipes two sockets both ways; either end closing or failing closes the other. */
function join(a, b) {
  a.pipe(b);
  b.pipe(a);
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.once('error', end).once('close', end);
  b.once('error', end).once('close', end);
}

/**
 * The host side: listens on host:port; every connection goes to the Unix socket at socketPath.
 * @param {{ host: string, port: number, socketPath: string }} o
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startHostForwarder(o) {
  const sockets = new Set();
  const server = createServer((client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    join(client, connect(o.socketPath));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, resolve);
  });
  return {
    url: `http://${o.host}:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// The namespace side (run as a script): Unix socket → TCP to the target, one connection each.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [socketPath, host, port, localAddress] = process.argv.slice(2);
  rmSync(socketPath, { force: true });
  const server = createServer((local) =>
    join(local, connect({ host, port: Number(port), noDelay: true, ...(localAddress ? { localAddress } : {}) })),
  );
  server.listen(socketPath, () => process.stdout.write(`forwarding ${socketPath} to ${host}:${port}\n`));
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}
