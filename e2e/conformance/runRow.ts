import type { Browser, Page } from '@playwright/test';
import type { RunningEdge } from '@ethle/edge-node';
import { openProbePage, report, events, type Harness } from '../fixtures/probeHarness.js';
import { holdOf, SEGMENT_SECONDS, STREAM, type Format, type Via } from './FORMATS.js';

/** One player × format × via cell, measured. */
export interface CellResult {
  format: string;
  player: 'hls' | 'dash';
  via: Via;
  /** Media seconds played after the first frame. */
  playedS: number;
  /** Median true latency (the probe: synced clock − production time of the frame on screen), s. */
  latencyS: number | null;
  /** Median distance to the manifest's edge (the probe's edgeDistance), s. */
  edgeDistanceS: number | null;
  /** HLS: how long after production the playlist lists a segment (the probe's manifestLag), s. */
  manifestLagS: number | null;
  /** X-Ethle-Hold-Seconds the edge declared on the media manifests (median; 0 direct). */
  declaredS: number;
  /** Distinct X-Ethle-Hold-Seconds values seen. */
  declaredValues: number[];
  /** latencyS − the direct cell's latencyS (edge cells of a row with a direct cell). */
  deltaS: number | null;
  /**
   * What the edge added between production and the player, as judged (see `judged`): DASH =
   * deltaS; HLS = manifestLagS − the direct cell's (hls.js's own start position is left out).
   */
  judgedS: number | null;
  stalls: number;
  /** The probe's startup delay (request → first frame), s. */
  startupS: number | null;
  fatalErrors: string[];
  /** Requests of an edge cell that went to the origin itself (the clock's /time excepted). */
  originRequests: string[];
  /** Media/init segment requests answered by the edge. */
  edgeSegments: number;
  /** Why the cell failed; empty = pass. */
  failures: string[];
}

export interface RowEnv {
  browser: Browser;
  harness: Harness;
  originUrl: string;
  edges: Record<Exclude<Via, 'direct'>, RunningEdge>;
}

/**
 * dash.js places the playhead by AST and its synced clock; with live catch-up it keeps its target
 * delay behind that edge, so a difference in startup time between two sessions does not stay in
 * their latencies. hls.js as it comes (its catch-up steers by an estimate of the edge that is off
 * by the phase of its playlist reloads).
 */
const PLAYER_CONFIG: Record<'hls' | 'dash', Record<string, unknown> | undefined> = {
  hls: undefined,
  dash: { streaming: { liveCatchup: { enabled: true } } },
};

/** The tolerance on (true latency through the edge − direct) − declared hold, s. */
export const TOLERANCE_S = 0.5;
/** The probe's clock must be this precise before latency samples count (ms). */
const CLOCK_PRECISION_MS = 50;
const SEGMENT_RE = /\.(m4s|ts|mp4)(\?|$)/;

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * Plays one format through every via at once — one browser context each, opened together in the
 * same phase of the segment clock — for `seconds` of media after the first frame, with the QoE
 * probe attached, and judges each cell. Started together, the players see the origin at the same
 * instant: hls.js starts a fixed distance behind the playlist's newest segment, so a page opened
 * a segment later would start 2 s later and the difference would not be the edge's.
 */
export async function runRow(env: RowEnv, f: Format, vias: readonly Via[], seconds: number): Promise<CellResult[]> {
  const pages: Array<{ via: Via; page: Page; base: string; requests: string[]; holds: number[] }> = [];
  for (const via of vias) {
    const base = via === 'direct' ? env.originUrl : env.edges[via].url;
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const entry = { via, page, base, requests: [] as string[], holds: [] as number[] };
    page.on('request', (r) => entry.requests.push(r.url()));
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      const h = r.headers()['x-ethle-hold-seconds'];
      // The media manifests' hold (a multivariant playlist declares 0: it lists no segments).
      if (h !== undefined && /\.(m3u8|mpd)$/.test(path) && !path.includes('master')) entry.holds.push(Number(h));
    });
    pages.push(entry);
  }
  await segmentPhase(env.originUrl);
  await Promise.all(pages.map((p) => openProbePage(p.page, env.harness, f.player, `${p.base}${f.path}`, false, PLAYER_CONFIG[f.player])));
  const played = await Promise.all(pages.map((p) => playFor(p.page, seconds)));

  const cells: CellResult[] = [];
  for (const [i, p] of pages.entries()) {
    const { settledAt, playedS } = played[i]!;
    const r = await report(p.page);
    const lat = (await events<{ at: number; trueLatency: number | null; edgeDistance: number | null }>(p.page, 'latency')).filter((l) => l.at >= settledAt && l.trueLatency !== null);
    const hold = holdOf(p.via);
    cells.push({
      format: f.id,
      player: f.player,
      via: p.via,
      playedS,
      latencyS: median(lat.map((l) => l.trueLatency!)),
      edgeDistanceS: median(lat.filter((l) => l.edgeDistance !== null).map((l) => l.edgeDistance!)),
      manifestLagS: r.manifestLag === null ? null : r.manifestLag.ms / 1000,
      declaredS: hold === undefined ? 0 : (median(p.holds) ?? NaN),
      declaredValues: [...new Set(p.holds)].sort((a, b) => a - b),
      deltaS: null,
      judgedS: null,
      stalls: r.stalls.count,
      startupS: r.startupMs === null ? null : r.startupMs / 1000,
      fatalErrors: (r.errors as Array<{ fatal: boolean; code: string; detail?: string }>).filter((e) => e.fatal).map((e) => `${e.code}${e.detail ? `:${e.detail}` : ''}`),
      originRequests: hold === undefined ? [] : p.requests.filter((u) => u.startsWith(env.originUrl) && new URL(u).pathname !== '/time'),
      edgeSegments: hold === undefined ? 0 : p.requests.filter((u) => u.startsWith(p.base) && SEGMENT_RE.test(u)).length,
      failures: [],
    });
    await p.page.context().close();
  }
  const direct = cells.find((c) => c.via === 'direct');
  for (const c of cells) {
    if (c.playedS < seconds) c.failures.push(`played ${c.playedS.toFixed(1)} s < ${seconds} s`);
    if (c.fatalErrors.length > 0) c.failures.push(`player errors: ${c.fatalErrors.join(', ')}`);
    if (c.latencyS === null) c.failures.push('no true-latency sample');
    if (c.via === 'direct') continue;
    if (c.originRequests.length > 0) c.failures.push(`${c.originRequests.length} requests bypassed the edge, e.g. ${c.originRequests[0]}`);
    if (c.edgeSegments === 0) c.failures.push('no segment request reached the edge');
    if (!Number.isFinite(c.declaredS)) c.failures.push('no X-Ethle-Hold-Seconds on a media manifest');
    if (direct?.latencyS != null && c.latencyS !== null) c.deltaS = c.latencyS - direct.latencyS;
    c.judgedS = f.player === 'dash' ? c.deltaS : direct?.manifestLagS != null && c.manifestLagS !== null ? c.manifestLagS - direct.manifestLagS : null;
    if (direct !== undefined && c.judgedS === null) c.failures.push('latency through the edge − direct not measured');
    if (c.judgedS !== null && Math.abs(c.judgedS - c.declaredS) > TOLERANCE_S) {
      c.failures.push(`${f.player === 'dash' ? 'true latency' : 'manifest lag'} − direct = ${c.judgedS.toFixed(2)} s, declared hold ${c.declaredS} s`);
    }
  }
  return cells;
}

/**
 * Resolves 0.3 s into the next segment period of the origin (by its playlist's program
 * date-times; this process shares the origin's clock), so the players' first manifest requests
 * fall in the same period, well clear of a segment's release.
 */
async function segmentPhase(originUrl: string): Promise<void> {
  const text = await (await fetch(`${originUrl}/live/${STREAM}/index.m3u8`)).text();
  const pdts = [...text.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(.+)/g)];
  const newestEnd = Date.parse(pdts.at(-1)![1]!) + SEGMENT_SECONDS * 1000;
  const period = SEGMENT_SECONDS * 1000;
  let at = newestEnd + 300;
  while (at < Date.now() + 100) at += period;
  await new Promise((r) => setTimeout(r, at - Date.now()));
}

/**
 * Polls the page until the playhead has advanced `seconds` past its first movement and the probe
 * has a settled clock and five latency samples since. Returns when the clock settled (epoch ms)
 * and how much was played; gives up `seconds` · 2 + 60 s after the start.
 */
async function playFor(page: Page, seconds: number): Promise<{ settledAt: number; playedS: number }> {
  const deadline = Date.now() + (seconds * 2 + 60) * 1000;
  let t0: number | undefined;
  let settledAt = Number.POSITIVE_INFINITY;
  let ct = 0;
  while (Date.now() < deadline) {
    const s = await page.evaluate(() => {
      const w = window as any;
      const r = w.probe.report();
      return { ct: w.video.currentTime as number, precision: (r.clock?.precisionMs ?? null) as number | null, samples: w.__qoe.filter((e: any) => e.type === 'latency').map((e: any) => e.data.at as number) as number[] };
    });
    ct = s.ct;
    if (t0 === undefined && ct > 0) t0 = ct;
    if (!Number.isFinite(settledAt) && s.precision !== null && s.precision <= CLOCK_PRECISION_MS) settledAt = Date.now();
    const after = s.samples.filter((a) => a >= settledAt).length;
    if (t0 !== undefined && ct - t0 >= seconds && after >= 5) break;
    await new Promise((r) => setTimeout(r, 250)); // polling interval of the condition above
  }
  return { settledAt, playedS: t0 === undefined ? 0 : ct - t0 };
}
