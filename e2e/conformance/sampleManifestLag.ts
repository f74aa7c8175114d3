import { dashContentEdge, firstVariant, hlsContentEdge } from './contentEdge.js';
import type { Format } from './SHAPES.js';

/** How far an edge's manifest trailed the origin's, read at the same instants (s, origin − edge). */
export interface LagSamples {
  lags: number[];
  /** Readings that failed (a fetch or a parse). */
  failed: number;
}

export interface LagSampler {
  /** Stops reading; resolves with what was read. */
  stop(): Promise<LagSamples>;
}

/**
 * Reads the origin's and an edge's manifest of one shape together every `everyMs` until stopped
 * and keeps origin − edge content reach (contentEdge.ts): the edge's own delay, measured apart
 * from any player. A multivariant playlist is followed to its first variant, on each side. With
 * `parts` (LL-HLS), by the newest listed part: an edge holding whole segments drops the parts of
 * the segment in production too, and declares them.
 */
export function sampleManifestLag(o: {
  originUrl: string;
  edgeUrl: string;
  path: string;
  format: Format;
  parts: boolean;
  segmentSeconds: number;
  everyMs?: number;
}): LagSampler {
  const every = o.everyMs ?? 250;
  const out: LagSamples = { lags: [], failed: 0 };
  let stopped = false;
  const urls = { origin: `${o.originUrl}${o.path}`, edge: `${o.edgeUrl}${o.path}` };
  const media = async (side: 'origin' | 'edge'): Promise<string> => {
    const text = await (await fetch(urls[side], { cache: 'no-store' })).text();
    const v = o.format === 'hls' ? firstVariant(text, urls[side]) : null;
    if (v === null) return text;
    urls[side] = v; // follow the variant from now on
    return (await fetch(v, { cache: 'no-store' })).text();
  };
  const reach = (text: string, now: number) =>
    o.format === 'hls' ? hlsContentEdge(text, o.parts) : dashContentEdge(text, now, o.segmentSeconds);
  const loop = (async () => {
    while (!stopped) {
      const next = Date.now() + every;
      try {
        const [a, b] = await Promise.all([media('origin'), media('edge')]);
        const now = Date.now();
        const ra = reach(a, now);
        const rb = reach(b, now);
        if (ra === null || rb === null) out.failed++;
        else out.lags.push(Math.round((ra - rb) * 1000) / 1000); // ms are all the readings resolve
      } catch {
        out.failed++;
      }
      await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now()))); // the reading cadence
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return out;
    },
  };
}
