import { LIMITS, requireRange } from './validate.js';

/**
 * The window Linux advertises for a receive buffer of `bufferBytes` (SO_RCVBUF as the kernel
 * reports it, or tcp_rmem's max under autotuning): the kernel keeps part of the buffer for
 * packet overhead. tcp_win_from_space() gives space − space/2^tcp_adv_win_scale, half with the
 * default scale 1 (Linux < 6.6); since 6.6 it is space · scaling_ratio, which starts at 50 % and
 * then follows the payload/truesize ratio of the packets received. `ratio` defaults to 0.5.
 * Linux's default tcp_rmem max of 6 MiB so gives a 3 MiB window.
 */
export function receiveWindowFromBuffer(bufferBytes: number, ratio = 0.5): number {
  const b = requireRange('bufferBytes', bufferBytes, 0, LIMITS.maxBytes, true);
  const r = requireRange('ratio', ratio, 0, 1, true);
  return b * r;
}
