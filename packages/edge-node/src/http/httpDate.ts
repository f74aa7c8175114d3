/** The Date value of the current second, and the first millisecond of the next one. */
let current = '';
let nextSecondMs = 0;

/**
 * HTTP Date (RFC 9110 §5.6.7) naming the second `nowMs` is in: made once per second, from the
 * wall clock read at each call. Node's own Date is cached too, but renewed by a timer, so on a
 * busy event loop it can name the second before for a few ms after it ends; receivers sync their
 * clocks to it (the QoE probe bisects exactly that boundary). Reading Date.now() per response
 * costs less than a Date object and its string.
 */
export function httpDate(nowMs: number = Date.now()): string {
  if (nowMs >= nextSecondMs || nowMs < nextSecondMs - 1000) {
    const second = Math.floor(nowMs / 1000) * 1000;
    current = new Date(second).toUTCString();
    nextSecondMs = second + 1000;
  }
  return current;
}
