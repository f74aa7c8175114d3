import { LIMITS, requireRange } from './validate.js';

/**
 * The window Linux advertises for a receive buffer of `bufferBytes` (SO_RCVBUF as the kernel
 * reports it, or tcp_rmem's max under autotuning): the kernel keeps part of the buffer for
 * packet overhead. Before Linux 6.6, tcp_win_from_space() gave space − space/2^tcp_adv_win_scale:
 * half with the default scale 1. Since 6.6 it is space · scaling_ratio, the payload/truesize ratio
 * of the packets received (starting from a fixed default: ~25 % in 6.6, 50 % in later kernels),
 * so the window can end up above or below half; pass `ratio` when it is known. Default 0.5:
 * Linux's default tcp_rmem max of 6 MiB then gives a 3 MiB window.
 */
export function receiveWindowFromBuffer(bufferBytes: number, ratio = 0.5): number {
  const b = requireRange('bufferBytes', bufferBytes, 0, LIMITS.maxBytes, true);
  const r = requireRange('ratio', ratio, 0, 1, true);
  return b * r;
}
