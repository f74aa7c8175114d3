/** One socket of /proc/net/udp (IPv4): its ports, the bytes waiting in its queues, and the datagrams the kernel dropped on it. */
export interface UdpSocketRow {
  localPort: number;
  remotePort: number;
  /** Bytes queued to send / received and not yet read (skb truesize, not payload). */
  txQueueBytes: number;
  rxQueueBytes: number;
  /** Datagrams dropped on this socket: its receive buffer was full (or a checksum failed). */
  drops: number;
}

/**
 * Parses /proc/net/udp: a header line, then per socket
 * `sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ref pointer drops`,
 * addresses as hex `ADDR:PORT`, the queues in hex, drops in decimal.
 */
export function parseProcNetUdp(text: string): UdpSocketRow[] {
  const rows: UdpSocketRow[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 13) continue;
    const port = (addr: string) => parseInt(addr.split(':')[1] ?? '', 16);
    const [tx, rx] = f[4]!.split(':').map((h) => parseInt(h, 16));
    const row = { localPort: port(f[1]!), remotePort: port(f[2]!), txQueueBytes: tx!, rxQueueBytes: rx!, drops: Number(f[f.length - 1]) };
    if (Object.values(row).every(Number.isFinite)) rows.push(row);
  }
  return rows;
}
