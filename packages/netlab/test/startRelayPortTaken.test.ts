import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePorts, linkBuffers, NetlabError, startRelay } from '@ethle/netlab';

// freePorts releases its ports before the relay binds them, so another process can take one in
// between; the testbed retries a link on NETLAB_PORT_TAKEN with fresh ports (createTestbed link()).
describe('startRelay on a port another process took', () => {
  it('rejects with NETLAB_PORT_TAKEN, which the testbed retries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ethle-relay-taken-'));
    const [aListen, aPeer, bListen, bPeer] = (await freePorts(4)) as [number, number, number, number];
    const squatter = createSocket('udp4');
    squatter.bind(aListen, '127.0.0.1');
    await once(squatter, 'listening');
    try {
      const started = startRelay(
        { aListen, aPeer, bListen, bPeer, link: { up: { delayMs: 1 }, down: { delayMs: 1 } }, socketBytes: linkBuffers().socketBytes },
        dir,
        'taken',
      );
      const e = await started.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(NetlabError);
      expect((e as NetlabError).code).toBe('NETLAB_PORT_TAKEN');
      expect((e as NetlabError).message).toMatch(/EADDRINUSE/);
    } finally {
      squatter.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
