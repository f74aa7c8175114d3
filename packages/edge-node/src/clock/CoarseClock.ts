/**
 * One shared low-resolution wall clock per edge (undici's trick): hot paths (cache age, idle
 * checks, session expiry) read a number instead of calling Date.now() per request. Precise
 * timings (RTT, throughput) use performance.now() where they are taken.
 */
export class CoarseClock {
  #now = Date.now();
  readonly #timer: NodeJS.Timeout;

  constructor(resolutionMs = 50) {
    this.#timer = setInterval(() => {
      this.#now = Date.now();
    }, resolutionMs);
    this.#timer.unref();
  }

  /** Wall-clock milliseconds, at most resolutionMs old. */
  now(): number {
    return this.#now;
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
