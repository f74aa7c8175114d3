/**
 * The paper's Table III: the optimal number of held segments x per stream and backhaul RTT, as
 * measured ("Actual"; the modelled x agrees everywhere but 15 Mbit/s 2 s at India, 3 vs 4, and is
 * missing for 50 Mbit/s 10 s, which BBR's model did not cover). `hold-paper` plays this x.
 */
export const PAPER_TABLE_III_X: Readonly<Record<string, Readonly<Record<number, number>>>> = {
  '15M-2s': { 137: 1, 224: 2, 302: 2, 334: 4 },
  '15M-4s': { 137: 0, 224: 0, 302: 1, 334: 1 },
  '15M-10s': { 137: 0, 224: 0, 302: 0, 334: 0 },
  '50M-2s': { 137: 1, 224: 2, 302: 2, 334: 3 },
  '50M-4s': { 137: 1, 224: 1, 302: 1, 334: 2 },
  '50M-10s': { 137: 0, 224: 0, 302: 1, 334: 1 },
};

/** Table III's x for a cell, or undefined off the paper's grid (another stream or RTT). */
export function paperHoldX(stream: string, rttMs: number): number | undefined {
  return PAPER_TABLE_III_X[stream]?.[rttMs];
}

/** A scheme's edge worker count: `auto-w4` = `auto` through a parent tier and 4 worker edges (`serve --workers 4`). */
const WORKERS = /-w(\d+)$/;

/**
 * The variants of `auto`, each with the edge flags it adds to `--hold auto`: `auto-measured` lets
 * x go below the model's on measured backhaul rates; `auto-warm` takes the origin to keep its
 * window across idle; `auto-learn` finds out from the edge's fetches (the edge's default, so the
 * same edge as `auto`, named for the runs that asked for it); `auto-slow-start` takes every fetch
 * to restart slow start — what the BBR paper matrix's `auto` rows ran, kept under this name so a
 * re-check compares like with like. Schemes, the merge's goal tables and the tables' order all
 * read this one list.
 */
export const AUTO_VARIANTS: Readonly<Record<string, readonly string[]>> = {
  'auto-measured': ['--hold-floor', 'measured'],
  'auto-warm': ['--segment-start', 'warm'],
  'auto-learn': ['--segment-start', 'learn'],
  'auto-slow-start': ['--segment-start', 'slow-start'],
};

/** The edge's `--hold` for a scheme: `hold-N` → N, `hold-paper` → Table III's x, `auto` and its variants → auto (any `-wN` aside); e2e has none. */
export function holdArg(scheme: string, stream: string, rttMs: number): string | undefined {
  scheme = scheme.replace(WORKERS, '');
  if (scheme === 'e2e') return undefined;
  if (scheme === 'auto' || Object.hasOwn(AUTO_VARIANTS, scheme)) return 'auto';
  // Held in parts (the edge's --hold-parts), not in whole segments.
  if (scheme.startsWith('parts-')) return '0';
  if (scheme === 'hold-paper') {
    const x = paperHoldX(stream, rttMs);
    if (x === undefined)
      throw new Error(`hold-paper: Table III has no x for ${stream} at ${rttMs} ms (streams 15M/50M × 2s/4s/10s, RTTs 137, 224, 302, 334)`);
    return String(x);
  }
  return scheme.slice('hold-'.length);
}

/**
 * The edge's hold flags for a scheme: `parts-N` holds N parts; `auto` on a low-latency stream lets
 * the edge decide in parts too (`--hold-parts auto`: LL features kept, the part model's N), so
 * `auto` means "the edge decides" for both kinds of stream. A `-wN` suffix runs the edge as a
 * parent tier with N worker edges. Undefined for e2e.
 */
export function edgeHoldArgs(scheme: string, stream: string, rttMs: number, ll: boolean): string[] | undefined {
  const hold = holdArg(scheme, stream, rttMs);
  if (hold === undefined) return undefined;
  const w = WORKERS.exec(scheme);
  // LiveJack's "parent + K children" on one box: the parent owns the origin flows, K workers hold.
  const workers = w ? ['--workers', w[1]!] : [];
  const base = scheme.replace(WORKERS, '');
  if (base.startsWith('parts-')) return ['--hold', '0', '--hold-parts', base.slice('parts-'.length), ...workers];
  // `auto` is the edge as shipped: no flag beyond --hold auto, so its defaults (segmentStart among
  // them) are what is measured (issue 38). The pinned variants are in AUTO_VARIANTS.
  if (base === 'auto') return ['--hold', 'auto', ...(ll ? ['--hold-parts', 'auto'] : []), ...workers];
  if (Object.hasOwn(AUTO_VARIANTS, base))
    return ['--hold', 'auto', ...AUTO_VARIANTS[base]!, ...(ll ? ['--hold-parts', 'auto'] : []), ...workers];
  return ['--hold', hold, ...workers];
}

/**
 * Where a scheme goes in a cell's rows: E2E, hold-N by N, hold-paper, parts-N by N, `auto`, its
 * variants in AUTO_VARIANTS' order, anything else (`-wN` tiers) last.
 */
export function schemeRank(scheme: string): number {
  if (scheme === 'e2e') return 0;
  if (scheme === 'hold-paper') return 50;
  if (/^hold-\d+$/.test(scheme)) return 1 + Number(scheme.slice('hold-'.length));
  if (/^parts-\d+$/.test(scheme)) return 1e5 + Number(scheme.slice('parts-'.length));
  if (scheme === 'auto') return 1e6;
  const variant = Object.keys(AUTO_VARIANTS).indexOf(scheme);
  return variant >= 0 ? 1e6 + 1 + variant : 1e7;
}
