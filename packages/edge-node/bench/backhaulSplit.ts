// Where a soak's origin bytes went: the origin's own count of fetches per path against the sizes
// of the objects, and the edge's bytes by fetch kind and outcome. Pure: the soak gathers the
// figures, this names the excess.

/** One series of a Prometheus text metric: its labels and value. */
export interface MetricSeries {
  labels: Record<string, string>;
  value: number;
}

/** Every series of `name` in a Prometheus text exposition. */
export function metricSeries(text: string, name: string): MetricSeries[] {
  const out: MetricSeries[] = [];
  for (const m of text.matchAll(new RegExp(`^${name}(?:\\{([^}]*)\\})? ([\\d.e+-]+)$`, 'gm'))) {
    const labels: Record<string, string> = {};
    for (const l of (m[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ labels, value: Number(m[2]) });
  }
  return out;
}

/** What kind of media object a path is: an LL part `{n}.{j}.m4s`, a segment (LL or not), an init. */
export function objectClass(path: string): 'part' | 'll-segment' | 'segment' | 'init' | 'other' {
  if (/\/\d+\.\d+\.m4s$/.test(path)) return 'part';
  if (/\/init\.mp4$/.test(path)) return 'init';
  if (/\/ll\/(?:dash\/[va]\/)?\d+\.m4s$/.test(path)) return 'll-segment';
  if (/\/(?:t?\d+)\.(?:m4s|ts)$/.test(path)) return 'segment';
  return 'other';
}

export interface ClassSplit {
  /** Distinct objects the origin was asked for, and their bytes (each once). */
  objects: number;
  bytes: number;
  /** Objects whose whole fetch (no Range, or a range from 0) the origin saw more than once. */
  refetched: number;
  /** Their extra whole fetches, and those times their size (an upper bound: a cancelled one sent less). */
  extraFetches: number;
  extraBytesAtMost: number;
  /** Requests beyond one per fetch: the parallel byte ranges of split fetches. */
  rangeRequests: number;
}

export interface BackhaulSplit {
  byClass: Record<string, ClassSplit>;
  /** The objects fetched most often beyond once: path, fetches, size. */
  worst: { path: string; fetches: number; bytes: number }[];
}

/**
 * The origin's view: per class of object, how many were fetched more than once and what that can
 * have cost. `sizes` are the objects' lengths (unknown ones count 0 bytes); `own` the requests
 * per path that were not the edge's (the soak's hash GETs and size HEADs), taken out.
 */
export function backhaulSplit(
  stats: { requests: Record<string, number>; fetches: Record<string, number>; own?: ReadonlyMap<string, number> },
  sizes: ReadonlyMap<string, number>,
  isMedia: (path: string) => boolean,
): BackhaulSplit {
  const byClass: Record<string, ClassSplit> = {};
  const worst: BackhaulSplit['worst'] = [];
  for (const [path, requests] of Object.entries(stats.requests)) {
    if (!isMedia(path)) continue;
    const c = objectClass(path);
    const s = (byClass[c] ??= { objects: 0, bytes: 0, refetched: 0, extraFetches: 0, extraBytesAtMost: 0, rangeRequests: 0 });
    const own = stats.own?.get(path) ?? 0;
    const fetches = (stats.fetches[path] ?? 0) - own;
    const size = sizes.get(path) ?? 0;
    s.objects += 1;
    s.bytes += size;
    s.rangeRequests += Math.max(0, requests - own - fetches);
    if (fetches > 1) {
      s.refetched += 1;
      s.extraFetches += fetches - 1;
      s.extraBytesAtMost += (fetches - 1) * size;
      worst.push({ path, fetches, bytes: size });
    }
  }
  worst.sort((a, b) => (b.fetches - 1) * b.bytes - (a.fetches - 1) * a.bytes);
  return { byClass, worst: worst.slice(0, 10) };
}
