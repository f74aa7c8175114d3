import type { Browser, Page } from '@playwright/test';
import type { RunningEdge } from '@ethle/edge-node';
import { events, openProbePage, report, type Harness } from '../fixtures/probeHarness.js';
import { judgeRow, type CellResult, type SessionResult } from './judgeRow.js';
import { sampleManifestLag } from './sampleManifestLag.js';
import { playerConfig, SEGMENT_SECONDS, STREAM, viasOf, type Player, type Shape, type Via } from './SHAPES.js';

export interface RowEnv {
  browser: Browser;
  harness: Harness;
  originUrl: string;
  edges: Record<Exclude<Via, 'direct'>, RunningEdge>;
}

/** Start groups per row: sessions opened at 0, 1/3 and 2/3 of a segment period (see runRow). */
export const GROUPS = 3;
/** The probe's clock must be this precise before latency samples count (ms). */
const CLOCK_PRECISION_MS = 50;
const SEGMENT_RE = /\.(m4s|ts|mp4)(\?|$)/;
const MANIFEST_RE = /\.(m3u8|mpd)$/;
const MULTIVARIANT_RE = /\/master[^/]*\.m3u8$/;

/**
 * One player on one shape through every via of the shape, `groups` times in turn: each group
 * opens one page per via at the same instant (so their latencies pair up: the players see the
 * manifests' updates at the same phase), the groups at phases a third of a segment apart (a
 * player that starts a whole number of segments behind the edge it sees lands anywhere within a
 * segment, depending on that phase; the means over the groups average it out). Every page plays
 * `seconds` of media after its first frame with the QoE probe; meanwhile each edge's manifest is
 * read against the origin's every 250 ms. Then judgeRow. Groups run one after the other: twelve
 * pages at once (an LL row) starved two cores into stalls and players that never started.
 */
export async function runRow(
  env: RowEnv,
  shape: Shape,
  player: Player,
  seconds: number,
  groups = GROUPS,
  vias: readonly Via[] = viasOf(shape),
): Promise<CellResult[]> {
  const config = playerConfig(player, shape.ll);
  const samplers = Object.fromEntries(
    vias
      .filter((v) => v !== 'direct')
      .map((v) => [
        v,
        sampleManifestLag({
          originUrl: env.originUrl,
          edgeUrl: env.edges[v as Exclude<Via, 'direct'>].url,
          path: shape.path,
          format: shape.format,
          parts: shape.ll,
          segmentSeconds: SEGMENT_SECONDS,
        }),
      ]),
  );
  const sessions: SessionResult[] = [];
  for (let group = 0; group < groups; group++) {
    // The group's phase: (0.3 s + group/groups of a segment) into the next segment period.
    const at = (await segmentPhase(env.originUrl)) + (group * SEGMENT_SECONDS * 1000) / groups;
    await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
    sessions.push(...(await Promise.all(vias.map((via) => session(env, shape, player, via, group, config, seconds)))));
  }
  const lags = Object.fromEntries(await Promise.all(Object.entries(samplers).map(async ([v, s]) => [v, await s.stop()] as const)));
  return judgeRow(player, shape, vias, sessions, lags, seconds, SEGMENT_SECONDS);
}

async function session(
  env: RowEnv,
  shape: Shape,
  player: Player,
  via: Via,
  group: number,
  config: Record<string, unknown> | undefined,
  seconds: number,
): Promise<SessionResult> {
  const base = via === 'direct' ? env.originUrl : env.edges[via].url;
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const requests: string[] = [];
  const holds: number[] = [];
  const lowLatencyLost: number[] = [];
  page.on('request', (r) => void requests.push(r.url()));
  page.on('response', (r) => {
    const u = new URL(r.url());
    const headers = r.headers();
    const h = headers['x-ethle-hold-seconds'];
    // The media manifests' hold (an HLS multivariant playlist declares 0: it lists no segments; a
    // DASH ladder MPD lists them and holds).
    if (h !== undefined && MANIFEST_RE.test(u.pathname) && !MULTIVARIANT_RE.test(u.pathname)) {
      holds.push(Number(h));
      lowLatencyLost.push(Number(headers['x-ethle-low-latency-lost-seconds'] ?? 0));
    }
  });
  try {
    await openProbePage(page, env.harness, player, `${base}${shape.path}`, false, config);
    const { settledAt, playedS } = await playFor(page, seconds);
    const r = await report(page);
    const lat = (await events<{ at: number; trueLatency: number | null }>(page, 'latency'))
      .filter((l) => l.at >= settledAt && l.trueLatency !== null)
      .map((l) => l.trueLatency!);
    return {
      via,
      group,
      playedS,
      latencyS: median(lat),
      probeLagS: r.manifestLag === null ? null : r.manifestLag.ms / 1000,
      startupS: r.startupMs === null ? null : r.startupMs / 1000,
      stalls: r.stalls.count,
      fatalErrors: (r.errors as Array<{ fatal: boolean; code: string; detail?: string }>)
        .filter((e) => e.fatal)
        .map((e) => `${e.code}${e.detail ? `:${e.detail}` : ''}`),
      originRequests: via === 'direct' ? [] : requests.filter((u) => u.startsWith(env.originUrl) && new URL(u).pathname !== '/time'),
      edgeSegments: via === 'direct' ? 0 : requests.filter((u) => u.startsWith(base) && SEGMENT_RE.test(new URL(u).pathname)).length,
      holds,
      lowLatencyLost,
    };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * Epoch ms 0.3 s into the next segment period of the origin (by its playlist's program
 * date-times; this process shares the origin's clock), well clear of a segment's release.
 */
async function segmentPhase(originUrl: string): Promise<number> {
  const text = await (await fetch(`${originUrl}/live/${STREAM}/index.m3u8`)).text();
  const pdts = [...text.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(.+)/g)];
  const period = SEGMENT_SECONDS * 1000;
  let at = Date.parse(pdts.at(-1)![1]!) + period + 300;
  while (at < Date.now() + 100) at += period;
  return at;
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
      return {
        ct: w.video.currentTime as number,
        precision: (r.clock?.precisionMs ?? null) as number | null,
        samples: w.__qoe.filter((e: any) => e.type === 'latency').map((e: any) => e.data.at as number) as number[],
      };
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
