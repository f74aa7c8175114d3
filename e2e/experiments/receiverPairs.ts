import { summarizeRun } from '@ethle/player-demo';
import { receiverOf, type MergedRun } from './mergeRuns.js';
import { quantile } from './scaleFigures.js';

/** One scenario × repeat played by Chromium and by a virtual receiver on the same seed. */
export interface ReceiverPair {
  key: string;
  scheme: string;
  repeat: number | undefined;
  chromium: PairSide;
  virtual: PairSide;
  /** The criteria (item 2): startup within 15 %, buffering within 1 s or 15 %, stall count ± 1. */
  startupOk: boolean;
  bufferingOk: boolean;
  stallsOk: boolean;
}

export interface PairSide {
  startupS: number | null;
  stallS: number;
  stalls: number;
  invalid: boolean;
  /** Live latency at the end of the run, s. */
  latencyS: number | null;
  /** Median media segment time (nearest rank), request to last byte, s (what the two players' loaders time alike). */
  segmentS: number | null;
  /** Media segments that opened a new connection (slow start); null when the run does not tell (no Timing-Allow-Origin, older runs). */
  freshFlowSegments: number | null;
  /**
   * Median (nearest rank) wait from a media segment's last byte to the next media request, over waits under 1 s
   * (the player wanted the next one at once; longer waits are for buffer room or the playlist), ms.
   * hls.js in Chromium appends first: 20–30 ms in the 50M cells; null with fewer than 2 segments.
   */
  nextRequestGapMs: number | null;
  /**
   * Media segments fetched on another connection than the segment before, which had carried only
   * other requests (a playlist's connection: as cold as a new one over a long RTT). Only the
   * virtual receiver can tell (`connectionId`); null otherwise.
   */
  movedSegments: number | null;
}

type Media = { requestStart: number; lastByte: number; track?: string; connectionId?: number };

/** Per track, in request order: next request − previous last byte, for the waits under 1 s. */
function gaps(media: readonly Media[]): number[] {
  const out: number[] = [];
  const byTrack = new Map<string, Media[]>();
  for (const m of media) {
    const list = byTrack.get(m.track ?? '');
    if (list === undefined) byTrack.set(m.track ?? '', [m]);
    else list.push(m);
  }
  for (const list of byTrack.values()) {
    list.sort((a, b) => a.requestStart - b.requestStart);
    for (let i = 1; i < list.length; i++) {
      const g = list[i]!.requestStart - list[i - 1]!.lastByte;
      if (g >= 0 && g < 1000) out.push(g);
    }
  }
  return out;
}

/** Segments on a connection other than the previous segment's that had carried no media before (see PairSide). */
function moved(media: readonly Media[]): number | null {
  if (!media.some((m) => m.connectionId !== undefined)) return null;
  const seen = new Set<number>();
  let n = 0;
  let prev: number | undefined;
  for (const m of [...media].sort((a, b) => a.requestStart - b.requestStart)) {
    const c = m.connectionId;
    if (c === undefined) continue;
    if (prev !== undefined && c !== prev && !seen.has(c)) n += 1;
    seen.add(c);
    prev = c;
  }
  return n;
}

/** A run's id without its receiver mark: the pair's key (Scenario ids differ only by `-virtual`). */
const pairKey = (id: string) => id.replace(/-virtual(-r\d+)$/, '$1');

/**
 * Pairs Chromium and virtual runs of the same scenario and repeat (hence the same seeded radio)
 * and checks each pair against the validation criteria. Runs without a partner are left out.
 */
export function receiverPairs(runs: MergedRun[]): ReceiverPair[] {
  const by = new Map<string, { chromium?: MergedRun; virtual?: MergedRun }>();
  for (const r of runs) {
    const k = pairKey(r.id);
    by.set(k, { ...by.get(k), [receiverOf(r) === 'virtual' ? 'virtual' : 'chromium']: r });
  }
  const side = (r: MergedRun): PairSide => {
    const m = summarizeRun(r);
    const media = r.report.segments.list.filter((s) => s.kind === 'media');
    const labelled = media.filter((s) => s.connection !== undefined);
    return {
      startupS: m.startupS,
      stallS: m.stallS,
      stalls: m.stallCount,
      invalid: Boolean(r.invalid),
      latencyS: m.latencyS,
      segmentS: quantile(
        media.map((s) => (s.lastByte - s.requestStart) / 1000),
        0.5,
      ),
      freshFlowSegments: labelled.length === 0 ? null : labelled.filter((s) => s.connection === 'new').length,
      nextRequestGapMs: quantile(gaps(media), 0.5),
      movedSegments: moved(media),
    };
  };
  const out: ReceiverPair[] = [];
  for (const [key, p] of [...by].sort(([a], [b]) => a.localeCompare(b))) {
    if (!p.chromium || !p.virtual) continue;
    const c = side(p.chromium);
    const v = side(p.virtual);
    const within = (a: number, b: number, rel: number, abs = 0) => Math.abs(a - b) <= Math.max(abs, rel * Math.abs(a));
    out.push({
      key,
      scheme: p.chromium.scenario.scheme,
      repeat: p.chromium.scenario.repeat,
      chromium: c,
      virtual: v,
      startupOk: c.startupS !== null && v.startupS !== null && within(c.startupS, v.startupS, 0.15),
      bufferingOk: within(c.stallS, v.stallS, 0.15, 1),
      stallsOk: Math.abs(c.stalls - v.stalls) <= 1,
    });
  }
  return out;
}
