import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startDemoServer } from '../server/startDemoServer.mjs';

describe('startDemoServer', () => {
  it('close() ends even while a page is mid-request (Ctrl-C must not wait for open tabs)', async () => {
    const demo = await startDemoServer({ port: 0, config: {} });
    const { port } = new URL(demo.url);
    // A request whose headers never finish: it stays in progress.
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const closedByServer = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('GET /api/config HTTP/1.1\r\nhost: x\r\n');
    await expect.poll(async () => (await fetch(`${demo.url}/api/config`)).status).toBe(200);
    await demo.close();
    await closedByServer;
    expect(socket.destroyed).toBe(true);
  });
});
