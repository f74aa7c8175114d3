import { createSocket } from 'node:dgram';

/** n distinct free UDP ports (all held open while choosing, so none is handed out twice). */
export async function freePorts(n: number): Promise<number[]> {
  const socks = Array.from({ length: n }, () => createSocket('udp4'));
  await Promise.all(socks.map((s) => new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()))));
  const ports = socks.map((s) => s.address().port);
  await Promise.all(socks.map((s) => new Promise<void>((r) => s.close(() => r()))));
  return ports;
}
