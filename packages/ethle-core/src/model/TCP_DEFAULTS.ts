/**
 * TCP defaults the model assumes when the caller knows no better.
 * - MSS 1448 B: a 1500 B Ethernet MTU minus IPv4/TCP headers and the timestamp option, as Linux sends.
 * - IW 10 segments: Linux's initial congestion window since 2.6.39 (RFC 6928). The ETHLE paper's
 *   Table III is reproduced with IW 1 (its growth starts from one MSS).
 * - tcp_rmem max 6 MiB: Linux's default receive-buffer ceiling under autotuning
 *   (net.ipv4.tcp_rmem's third field); receiveWindowFromBuffer turns it into the 3 MiB it advertises.
 */
export const TCP_DEFAULTS = {
  mssBytes: 1448,
  initialWindowSegments: 10,
  receiveBufferMaxBytes: 6 * 1024 * 1024,
} as const;
