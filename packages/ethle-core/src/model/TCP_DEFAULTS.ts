/**
 * TCP defaults the model assumes when the caller knows no better.
 * - MSS 1448 B: a 1500 B Ethernet MTU minus IPv4/TCP headers and the timestamp option, as Linux sends.
 * - IW 10 segments: Linux's initial congestion window since 2.6.39 (RFC 6928). The ETHLE paper's
 *   Table III is reproduced with IW 1 (its growth starts from one MSS).
 */
export const TCP_DEFAULTS = {
  mssBytes: 1448,
  initialWindowSegments: 10,
} as const;
