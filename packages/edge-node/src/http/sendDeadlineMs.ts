import { timerMs } from '@ethle/core';

/**
 * How long the edge may spend waiting on one receiver to take a response of `bytes` (ms): the
 * time the bytes would take at the slowest rate the edge serves, `minBytesPerSecond`, and at
 * least `floorMs` (a small response still gets a round trip and a slow start). A receiver slower
 * than that cannot play the object in time anyway, and meanwhile holds it and a connection.
 */
export function sendDeadlineMs(bytes: number, minBytesPerSecond: number, floorMs: number): number {
  return timerMs(Math.max(floorMs, (Math.max(0, bytes) * 1000) / minBytesPerSecond));
}
