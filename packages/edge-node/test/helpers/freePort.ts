import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 now, for servers that must share one port across addresses
 * (edges of a fleet on 127.0.0.1 and 127.0.0.2) or be known before they start.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
  });
}
