/**
 * Resolves true once `now() >= atMs`, false if `gone()` first (the client left, the origin closed).
 * Wakes at least every POLL_MS: the origin's clock may be injected and jump (tests), so a single
 * timer for the whole wait could oversleep by however far the clock jumped.
 */
const POLL_MS = 50;

export function waitUntil(now: () => number, atMs: number, gone: () => boolean): Promise<boolean> {
  return new Promise((resolve) => {
    const check = () => {
      if (gone()) return resolve(false);
      const left = atMs - now();
      if (left <= 0) return resolve(true);
      setTimeout(check, Math.min(left, POLL_MS)).unref();
    };
    check();
  });
}
