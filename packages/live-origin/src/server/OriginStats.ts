/** Request counts per path, bytes sent and open connections: the `/stats` JSON (an interface). */
export interface OriginStatsJson {
  requests: Record<string, number>;
  /**
   * Fetches of the whole object per path: requests without Range or with a range from byte 0. An
   * edge that fetches one segment as parallel ranges makes several requests but one fetch.
   */
  fetches: Record<string, number>;
  /**
   * LL-HLS blocking playlist reloads per `{path}?_HLS_msn=M&_HLS_part=P` asked: how many requests
   * each playlist version cost (an edge should ask once per version, however many receivers block).
   */
  blocking: Record<string, number>;
  bytesSent: number;
  openConnections: number;
}

/** Bound on distinct paths counted, so hours of segment paths (or garbage) can't grow memory. */
const MAX_PATHS = 50_000;

export class OriginStats {
  private requests = new Map<string, number>();
  private fetches = new Map<string, number>();
  private blocking = new Map<string, number>();
  bytesSent = 0;
  openConnections = 0;

  count(path: string, range?: string): void {
    const key = this.requests.has(path) || this.requests.size < MAX_PATHS ? path : '(other)';
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    if (range === undefined || /^\s*bytes\s*=\s*0+\s*-/i.test(range)) this.fetches.set(key, (this.fetches.get(key) ?? 0) + 1);
  }

  /** One blocking reload (counted besides `count` of its path). */
  countBlocking(path: string, msn: number, part: number | undefined): void {
    const k = `${path}?_HLS_msn=${msn}${part === undefined ? '' : `&_HLS_part=${part}`}`;
    const key = this.blocking.has(k) || this.blocking.size < MAX_PATHS ? k : '(other)';
    this.blocking.set(key, (this.blocking.get(key) ?? 0) + 1);
  }

  toJSON(): OriginStatsJson {
    return {
      requests: Object.fromEntries(this.requests),
      fetches: Object.fromEntries(this.fetches),
      blocking: Object.fromEntries(this.blocking),
      bytesSent: this.bytesSent,
      openConnections: this.openConnections,
    };
  }

  /** Zeroes the counters (open connections are a gauge, not reset). */
  reset(): void {
    this.requests = new Map();
    this.fetches = new Map();
    this.blocking = new Map();
    this.bytesSent = 0;
  }
}
