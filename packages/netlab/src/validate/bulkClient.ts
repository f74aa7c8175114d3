// Fetches http://HOST:PORT/bytes/N once over a fresh TCP connection and prints JSON: connect
// time, time to first byte, total time and (time, bytes) samples — slow start, seen from the receiver.
import { connect } from 'node:net';

// An optional 4th argument binds the client's side of the connection (one user of a cell).
const [host, port, bytes, localAddress] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4]), process.argv[5]];
const t0 = performance.now();
const samples: [number, number][] = [];
let got = -1;
let connectMs = 0;
let firstMs = 0;
let header = '';
const sock = connect({ port, host, ...(localAddress ? { localAddress } : {}) }, () => {
  connectMs = performance.now() - t0;
  sock.write(`GET /bytes/${bytes} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
});
sock.on('data', (d: Buffer) => {
  const now = performance.now() - t0;
  if (got < 0) {
    header += d.toString('latin1');
    const end = header.indexOf('\r\n\r\n');
    if (end < 0) return;
    firstMs = now;
    got = Buffer.byteLength(header.slice(end + 4), 'latin1');
  } else got += d.length;
  samples.push([now, got]);
});
sock.on('end', () => {
  console.log(JSON.stringify({ connectMs, firstByteMs: firstMs, totalMs: samples.at(-1)?.[0] ?? 0, bytes: got, samples }));
});
