/** How big every queue on a link's path is: the TUN devices' and the UDP sockets' of socat and the relay. */
export interface LinkBuffers {
  /** SO_RCVBUF and SO_SNDBUF of every UDP socket on the path (socat's and the relay's), bytes as asked (the kernel doubles it for its bookkeeping). */
  socketBytes: number;
  /** txqueuelen of each TUN device: packets the kernel may queue for its socat to read. */
  txQueueLen: number;
}

/** Linux's default largest TCP send buffer (tcp_wmem's third field), what a host sends with unless told otherwise. */
const LINUX_WMEM_MAX = 4 * 1024 * 1024;
const MSS = 1448;
/** The socket buffer never needs to go past this (and the sysctls it needs stay sane). */
const MAX_SOCKET_BYTES = 256 * 1024 * 1024;

/**
 * Every queue on a link's path sized to take, in one burst, four times the window of the hosts'
 * largest TCP send buffer (default 4 MB, so 16 MB: four flows' full windows back to back).
 *
 * Why a burst that large: a flow that is not paced (CUBIC, Reno) sends in slow start as fast as
 * ACKs arrive, and over a delay-only link the ACKs arrive as a train as fast as the data left, so
 * a whole window reaches the TUN at once; TCP Small Queues does not hold it back, because the TUN
 * device orphans each packet as it queues it. The socat that reads the TUN and the one that writes
 * the far TUN move one datagram per system call, slower than the kernel fills them, so each queue
 * after them must hold the burst. With Linux's defaults (txqueuelen 500 and a 208 KB socket
 * buffer) a 224 ms CUBIC transfer lost ~3 % of its packets there, and nothing counted them as the
 * link's (docs/netlab.md, "Where a packet can be lost").
 *
 * A UDP datagram of a 1500-byte packet costs ~2.3 kB of socket buffer (its skb's truesize) and the
 * kernel doubles SO_RCVBUF for that overhead, so `socketBytes` of N holds ≈ N × 2 / 2.3 kB packets:
 * 32 MB ≈ 29,000. Memory is only used while something is queued.
 */
export function linkBuffers(tcpBufferBytes = LINUX_WMEM_MAX): LinkBuffers {
  const burstBytes = 4 * Math.max(LINUX_WMEM_MAX, tcpBufferBytes);
  return {
    socketBytes: Math.min(MAX_SOCKET_BYTES, Math.max(32 * 1024 * 1024, 2 * burstBytes)),
    txQueueLen: Math.max(20_000, Math.ceil(burstBytes / MSS)),
  };
}
