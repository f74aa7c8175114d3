/** The players the demo offers. */
export type DemoPlayer = 'hls' | 'dash' | 'shaka';

/** Where the demo's origin and edge are: from `/api/config` (npm start), overridable by URL parameters. */
export interface DemoConfig {
  originUrl: string;
  edgeUrl: string;
  stream: string;
  player: DemoPlayer;
  /** What the player plays: hls.js HLS, dash.js DASH; Shaka either (`?format=hls|dash`, default DASH). */
  format: 'hls' | 'dash';
  /** The edge's scheme: `auto` or `hold-N`. */
  scheme: string;
  /** The QoE collector the probes send to and the dashboard reads (`npm start` runs one); null: none. */
  collectorUrl: string | null;
}

export async function loadConfig(): Promise<DemoConfig> {
  const q = new URLSearchParams(location.search);
  let base: Partial<DemoConfig> = {};
  try {
    const r = await fetch('/api/config');
    if (r.ok) base = (await r.json()) as Partial<DemoConfig>;
  } catch {
    // No demo server (e.g. the built pages opened from another server): URL parameters must say it all.
  }
  const p = q.get('player') ?? base.player ?? 'hls';
  const player: DemoPlayer = p === 'dash' || p === 'shaka' ? p : 'hls';
  const format = player === 'shaka' ? ((q.get('format') ?? base.format) === 'hls' ? 'hls' : 'dash') : player;
  const cfg = {
    originUrl: q.get('origin') ?? base.originUrl ?? 'http://127.0.0.1:8081',
    edgeUrl: q.get('edge') ?? base.edgeUrl ?? 'http://127.0.0.1:8080',
    stream: q.get('stream') ?? base.stream ?? '2M-2s',
    player,
    format,
    scheme: q.get('scheme') ?? base.scheme ?? 'auto',
    collectorUrl: q.get('collector') ?? base.collectorUrl ?? null,
  } satisfies DemoConfig;
  return cfg;
}

/** The player's name as the pages show it. */
export const playerName = (c: Pick<DemoConfig, 'player' | 'format'>): string =>
  c.player === 'shaka' ? `Shaka Player (${c.format === 'hls' ? 'HLS' : 'DASH'})` : c.player === 'dash' ? 'dash.js' : 'hls.js';

export function manifestUrl(base: string, stream: string, format: 'hls' | 'dash'): string {
  return `${base}/live/${stream}/${format === 'dash' ? 'manifest.mpd' : 'index.m3u8'}`;
}
