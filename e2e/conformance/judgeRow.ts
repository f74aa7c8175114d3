import type { Player, Via } from './SHAPES.js';

/** What one player session measured (runRow). */
export interface SessionResult {
  via: Via;
  /** Start group: sessions of one group opened together, one per via (their differences pair up). */
  group: number;
  /** Media seconds played after the first frame. */
  playedS: number;
  /** Median true latency (the QoE probe: synced clock − production time of the frame on screen) once its clock was within ±50 ms, s. */
  latencyS: number | null;
  /** HLS: the probe's manifest lag — how long after production the playlists this player read listed a segment — s. */
  probeLagS: number | null;
  startupS: number | null;
  stalls: number;
  fatalErrors: string[];
  /** Requests that went to the origin itself from a page meant to play through an edge (the clock's /time excepted). */
  originRequests: string[];
  /** Media/init segment requests answered by the edge. */
  edgeSegments: number;
  /** X-Ethle-Hold-Seconds of the media manifests the page got. */
  holds: number[];
  /**
   * X-Ethle-Low-Latency-Lost-Seconds of the same responses, 0 where absent (an LL-HLS playlist held
   * in whole segments: the part of the declared hold that is the player's fallback from
   * PART-HOLD-BACK to HOLD-BACK, not content the manifest lists less). Absent in runs kept from before.
   */
  lowLatencyLost?: number[];
}

export interface Spread {
  mean: number;
  sd: number;
  n: number;
}

export interface CellResult {
  player: Player;
  shape: string;
  via: Via;
  sessions: SessionResult[];
  /** True latency over the sessions (each its median), s. */
  latency: Spread | null;
  /** Paired per start group: this via's true latency − hold-0's (hold-0: − direct's), s. */
  delta: Spread | null;
  /** What `delta` is taken against. */
  deltaRef: Via | null;
  /** X-Ethle-Hold-Seconds the edge declared on its media manifests (mean; 0 direct). */
  declaredS: number;
  /** Of `declaredS`, the players' low-latency fallback (X-Ethle-Low-Latency-Lost-Seconds, mean): the manifest is judged against the rest. */
  lostS: number;
  declaredValues: number[];
  /** The edge's manifest behind the origin's, read at the same instants (sampleManifestLag), s. */
  manifestLag: Spread | null;
  /** The readings behind manifestLag (origin − edge, s), kept so a run can be judged again (rejudge.ts). */
  lagSamples: number[];
  /** HLS: the probe's manifest lag over the sessions, and its difference from hold-0's (means), s. */
  probeLag: Spread | null;
  probeLagDelta: number | null;
  /** The bound `delta` was judged against, ± s around the declared hold (null: not judged). */
  deltaTolerance: number | null;
  startup: Spread | null;
  stalls: number;
  edgeSegments: number;
  /** Why the cell failed; empty = pass. */
  failures: string[];
  /** What was measured but not judged, and why. */
  notes: string[];
}

/**
 * Held by whole segments, an LL-HLS playlist reaches the player without its LL features (the
 * edge strips them at x ≥ 1), so the player leaves its low-latency mode and starts HOLD-BACK
 * behind the edge instead of PART-HOLD-BACK. The edge declares that fallback as part of its hold
 * (X-Ethle-Low-Latency-Lost-Seconds, included in X-Ethle-Hold-Seconds); its manifest is judged
 * against the rest. The playlists the player reads hold whole segments where hold-0's hold parts.
 */
const LL_HLS_WHOLE =
  'an LL-HLS stream held by whole segments reaches the player as a regular one (its LL features stripped; the declared hold includes the fallback from PART-HOLD-BACK to HOLD-BACK, the manifest is judged without it): its latency − hold-0 and its manifest lag are listed, not judged';

/**
 * Tolerance on a holding via's true latency − hold-0's (mean of the pairs) − declared, s: this or
 * the 95 % confidence half-width of the mean (Student's t over the pairs), whichever is larger. A
 * player that starts a whole number of segments behind the edge it sees, and at its own startup
 * pace, scatters a session's latency by up to a segment: the mean of a few pairs is only that
 * precise. With a single pair: this + a segment.
 */
export const TOLERANCE_S = 0.5;
/** Student's t, two-sided 95 %, for 1…10 degrees of freedom (then ≈ 2). */
const T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228];
const t95 = (df: number): number => T95[df - 1] ?? 2;
/** Tolerance on the edges' manifest lags (hold-x − hold-0, read by the test) − declared, s. */
export const LAG_TOLERANCE_S = 0.25;

export function spread(xs: readonly number[]): Spread | null {
  if (xs.length === 0) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length < 2 ? 0 : Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
  return { mean, sd, n: xs.length };
}

/**
 * Judges the cells of one row (one player on one shape, every via), pure. A cell passes when every
 * session played `seconds` without a fatal error with a true-latency reading and, through an edge,
 * no request went around it, segments came from it and it declared its hold; and, for a holding
 * via (hold-2, parts-2), when what it adds is the declared hold, measured three ways: the
 * players' true latency against hold-0 sessions opened at the same instants (mean of the pairs,
 * ± TOLERANCE_S or its 95 % confidence half-width); on HLS the probe's manifest lag (from the playlists the
 * players read) against hold-0's (± TOLERANCE_S); and the edge's manifest against the origin's,
 * read together by the test apart from any player, against hold-0's (± LAG_TOLERANCE_S). hold-0's
 * manifest must trail the origin's by 0 to one segment (the edge's poll).
 */
export function judgeRow(
  player: Player,
  shape: { id: string; format: 'hls' | 'dash'; ll: boolean },
  vias: readonly Via[],
  sessions: readonly SessionResult[],
  lags: Partial<Record<Via, { lags: number[] }>>,
  seconds: number,
  segmentSeconds: number,
): CellResult[] {
  const lagOf = (v: Via) => (lags[v] ? spread(lags[v]!.lags) : null);
  const probeLagOf = (v: Via) => spread(sessions.flatMap((s) => (s.via === v && s.probeLagS !== null ? [s.probeLagS] : [])));
  const cells: CellResult[] = [];
  for (const via of vias) {
    const mine = sessions.filter((s) => s.via === via);
    const holds = mine.flatMap((s) => s.holds);
    // The mean: an edge holding whole segments of an LL playlist declares them plus the parts of the
    // segment in production it drops, which vary with the moment (4–5.5 s for 2 segments).
    const declaredS = via === 'direct' ? 0 : holds.length === 0 ? NaN : holds.reduce((a, b) => a + b, 0) / holds.length;
    const losts = mine.flatMap((s) => s.lowLatencyLost ?? []);
    const lostS = losts.length === 0 ? 0 : losts.reduce((a, b) => a + b, 0) / losts.length;
    const ref: Via | null = via === 'direct' ? null : via === 'hold-0' ? 'direct' : 'hold-0';
    const paired: number[] = [];
    if (ref) {
      for (const s of mine) {
        const r = sessions.find((x) => x.via === ref && x.group === s.group);
        if (s.latencyS !== null && r?.latencyS != null) paired.push(s.latencyS - r.latencyS);
      }
    }
    const failures: string[] = [];
    for (const s of mine) {
      const who = `session ${s.group + 1}`;
      if (s.playedS < seconds) failures.push(`${who} played ${s.playedS.toFixed(1)} s < ${seconds} s`);
      if (s.fatalErrors.length > 0) failures.push(`${who}: player errors ${s.fatalErrors.join(', ')}`);
      if (s.latencyS === null) failures.push(`${who}: no true-latency reading`);
      if (via === 'direct') continue;
      if (s.originRequests.length > 0)
        failures.push(`${who}: ${s.originRequests.length} requests went around the edge, e.g. ${s.originRequests[0]}`);
      if (s.edgeSegments === 0) failures.push(`${who}: no segment request reached the edge`);
    }
    if (via !== 'direct' && !Number.isFinite(declaredS)) failures.push('no X-Ethle-Hold-Seconds on a media manifest');
    const delta = spread(paired);
    const manifestLag = lagOf(via);
    const probeLag = shape.format === 'hls' ? probeLagOf(via) : null;
    const probeRef = shape.format === 'hls' && ref !== null && ref !== 'direct' ? probeLagOf(ref) : null;
    const probeLagDelta = probeLag && probeRef ? probeLag.mean - probeRef.mean : null;
    const notes: string[] = [];
    const holding = via === 'hold-2' || via === 'parts-2';
    const playersJudged = !(shape.format === 'hls' && shape.ll && via === 'hold-2');
    if (holding && !playersJudged) notes.push(LL_HLS_WHOLE);
    const deltaTolerance =
      !holding || !playersJudged || delta === null
        ? null
        : delta.n < 2
          ? TOLERANCE_S + segmentSeconds
          : Math.max(TOLERANCE_S, (t95(delta.n - 1) * delta.sd) / Math.sqrt(delta.n));
    if (holding && playersJudged) {
      if (delta === null) failures.push('true latency against hold-0 not measured');
      else if (Math.abs(delta.mean - declaredS) > deltaTolerance!)
        failures.push(
          `true latency − hold-0 = ${delta.mean.toFixed(2)} s (mean of ${delta.n}), declared ${declaredS.toFixed(2)} s ± ${deltaTolerance!.toFixed(2)}`,
        );
      if (shape.format === 'hls') {
        if (probeLagDelta === null) failures.push("the probe's manifest lag against hold-0 not measured");
        else if (Math.abs(probeLagDelta - declaredS) > TOLERANCE_S)
          failures.push(`the players' manifest lag − hold-0's = ${probeLagDelta.toFixed(2)} s, declared ${declaredS.toFixed(2)} s`);
      }
    }
    if (holding) {
      const ref0 = lagOf('hold-0');
      if (manifestLag === null || manifestLag.n < 5 || ref0 === null || ref0.n < 5)
        failures.push("manifest lag against the origin (and hold-0's) not measured");
      else if (Math.abs(manifestLag.mean - ref0.mean - (declaredS - lostS)) > LAG_TOLERANCE_S) {
        failures.push(
          `manifest behind hold-0's by ${(manifestLag.mean - ref0.mean).toFixed(2)} s, declared ${declaredS.toFixed(2)} s${lostS > 0 ? ` (${lostS.toFixed(2)} s of it the players' low-latency fallback)` : ''}`,
        );
      }
    }
    if (via === 'hold-0') {
      // Unheld, the edge lists a segment a poll after the origin: never before, at most a segment after.
      if (manifestLag === null || manifestLag.n < 5) failures.push('manifest lag against the origin not measured');
      else if (manifestLag.mean < -LAG_TOLERANCE_S || manifestLag.mean > segmentSeconds + LAG_TOLERANCE_S)
        failures.push(`manifest behind the origin's by ${manifestLag.mean.toFixed(2)} s (unheld: 0 to a segment)`);
    }
    cells.push({
      player,
      shape: shape.id,
      via,
      sessions: mine,
      latency: spread(mine.flatMap((s) => (s.latencyS === null ? [] : [s.latencyS]))),
      delta,
      deltaRef: ref,
      declaredS,
      lostS,
      declaredValues: [...new Set(holds)].sort((a, b) => a - b),
      manifestLag,
      lagSamples: lags[via]?.lags ?? [],
      probeLag,
      probeLagDelta,
      deltaTolerance,
      startup: spread(mine.flatMap((s) => (s.startupS === null ? [] : [s.startupS]))),
      stalls: mine.reduce((a, s) => a + s.stalls, 0),
      edgeSegments: mine.reduce((a, s) => a + s.edgeSegments, 0),
      failures,
      notes,
    });
  }
  return cells;
}
