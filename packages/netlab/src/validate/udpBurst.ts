// A burst of UDP datagrams at line rate, to check that a link loses none of a burst it must carry.
// `udpBurst.js recv PORT` binds (its receive buffer as large as the host allows), prints "ready",
// and once datagrams came and none for 1 s (or 20 s after it started) prints {"received": N,
// "distinct": N} and exits. `udpBurst.js send IP PORT COUNT BYTES` sends COUNT numbered datagrams
// of BYTES back to back, as fast as the host takes them.
import { createSocket } from 'node:dgram';

const [mode, a, b, c, d] = process.argv.slice(2);
if (mode === 'recv') {
  const s = createSocket('udp4');
  const seen = new Set<number>();
  let received = 0;
  let idle: NodeJS.Timeout | undefined;
  const done = () => {
    console.log(JSON.stringify({ received, distinct: seen.size }));
    s.close();
    process.exit(0);
  };
  setTimeout(done, 20_000).unref();
  s.on('message', (m) => {
    received += 1;
    seen.add(m.readUInt32BE(0));
    if (idle) clearTimeout(idle);
    idle = setTimeout(done, 1000);
  });
  s.bind(Number(a), '0.0.0.0', () => {
    // The host's maximum (the testbed raises net.core.rmem_max): the receiver must not be what drops.
    s.setRecvBufferSize(64 * 1024 * 1024);
    console.log('ready');
  });
} else {
  const [ip, port, count, bytes] = [a!, Number(b), Number(c), Number(d)];
  const s = createSocket('udp4');
  let left = count;
  for (let i = 0; i < count; i++) {
    const buf = Buffer.alloc(bytes);
    buf.writeUInt32BE(i, 0);
    s.send(buf, port, ip, () => {
      if (--left === 0) s.close();
    });
  }
}
