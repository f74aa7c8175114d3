import { LIMITS, requireRange } from './validate.js';

export interface WindowCapInput {
  rttSeconds: number;
  /**
   * Bytes the receiver lets the sender have in flight (its advertised window). Linux advertises
   * about half of the receive buffer: see receiveWindowFromBuffer.
   */
  receiveWindowBytes?: number;
  /**
   * Bytes the sender can keep in flight: bounded by its send buffer (tcp_wmem max, 4 MiB by
   * default), which also holds not-yet-sent data and per-packet overhead, so in practice less.
   */
  sendWindowBytes?: number;
}

/**
 * The most one TCP flow can carry, min(receive window, send window) / RTT, in bits/s; undefined
 * when neither window is known (no cap).
 *
 * Why the model needs it: slow start doubles the window every RTT only until a buffer stops it.
 * Linux's defaults are tcp_rmem max 6 MiB (6291456) and tcp_wmem max 4 MiB (4194304). The
 * receiver advertises about half its buffer (exactly half with tcp_adv_win_scale = 1 before
 * Linux 6.6; since then a measured payload/truesize ratio, see receiveWindowFromBuffer), so one
 * stock receiver allows ~3 MiB in flight: 3·2^20 B · 8 / 0.224 s ≈ 112 Mbit/s for one 224 ms flow. The testbed's send side is
 * tighter: its 61 MB transfers reach 67 Mbit/s (docs/netlab.md), which fits an effective send
 * window of ~2.5 MB, 60 % of the 4 MiB buffer (test/model/windowCap.test.ts).
 */
export function windowCapBps(input: WindowCapInput): number | undefined {
  const rtt = requireRange('rttSeconds', input.rttSeconds, 0, LIMITS.maxRttSeconds, true);
  const rcv =
    input.receiveWindowBytes === undefined
      ? Number.POSITIVE_INFINITY
      : requireRange('receiveWindowBytes', input.receiveWindowBytes, 0, LIMITS.maxBytes, true);
  const snd =
    input.sendWindowBytes === undefined
      ? Number.POSITIVE_INFINITY
      : requireRange('sendWindowBytes', input.sendWindowBytes, 0, LIMITS.maxBytes, true);
  const w = Math.min(rcv, snd);
  return w === Number.POSITIVE_INFINITY ? undefined : (w * 8) / rtt;
}
