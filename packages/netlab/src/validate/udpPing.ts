// A ping over UDP, for namespaces without iputils: `udpPing.js server PORT` echoes every datagram
// back (prints "ready" once bound); `udpPing.js client IP PORT INTERVAL_MS SECONDS` sends a
// 64-byte datagram every INTERVAL_MS for SECONDS, then prints the round trips (ms) as JSON
// (datagrams with no echo within 2 s are left out and counted as lost).
import { createSocket } from 'node:dgram';

const [mode, a, b, c, d] = process.argv.slice(2);
if (mode === 'server') {
  const s = createSocket('udp4');
  s.on('message', (m, r) => s.send(m, r.port, r.address));
  s.bind(Number(a), '0.0.0.0', () => console.log('ready'));
} else {
  const [ip, port, everyMs, seconds] = [a!, Number(b), Number(c), Number(d)];
  const s = createSocket('udp4');
  const sentAt = new Map<number, number>();
  const rtts: number[] = [];
  s.on('message', (m) => {
    const seq = m.readUInt32BE(0);
    const t = sentAt.get(seq);
    if (t === undefined) return;
    sentAt.delete(seq);
    rtts.push(performance.now() - t);
  });
  const buf = Buffer.alloc(64);
  let seq = 0;
  const t0 = performance.now();
  const tick = () => {
    buf.writeUInt32BE(seq, 0);
    sentAt.set(seq, performance.now());
    // Bounded: forget probes older than 2 s (lost).
    for (const [k, t] of sentAt) if (performance.now() - t > 2000) sentAt.delete(k);
    s.send(buf, port, ip);
    seq += 1;
    if (performance.now() - t0 < seconds * 1000) setTimeout(tick, Math.max(0, t0 + seq * everyMs - performance.now()));
    else setTimeout(() => (console.log(JSON.stringify({ sent: seq, rtts })), s.close()), 2000);
  };
  s.bind(0, tick);
}
