import { EthleError } from '../errors/EthleError.js';

export interface PrefetchDeadlines {
  nowMs: number;
  /** Measured per-flow backhaul rate, bits/s (steady state; a byte range gets one flow's rate). */
  flowBps: number;
  /** Expected bytes of segment `id` (e.g. the last segment's size, or bitrate × l_seg). */
  segmentBytes: (id: number) => number;
  /**
   * When segment `id` must be local, ms (segmentDeadlineMs), or undefined for no deadline — e.g. a
   * segment only hold-0 receivers ask for, which the edge fetches on request, not ahead.
   */
  deadlineMs: (id: number) => number | undefined;
  /** Bytes an in-flight fetch of `id` has received so far (undefined: 0). */
  receivedBytes?: (id: number) => number | undefined;
  /**
   * When segment `id` became available at the origin, ms (undefined: unknown). With it, a miss
   * that only the fetch's late start explains (started then, at the rate it is projected at, it
   * would have been in time) does not raise x: a segment fetched late — the stream just started,
   * a receiver jumped ahead, the fetch waited for a slot — is a backlog that splitting and
   * bursting serve, and a larger x does not. In-flight fetches need `fetchElapsedMs` for this.
   */
  producedAtMs?: (id: number) => number | undefined;
  /**
   * How long the in-flight fetch of `id` has run, ms (undefined: unknown). With it, a fetch that is
   * running slower than the measured flow rate is projected at its own rate: the measured rate is
   * the past, and a backhaul that has just slowed down shows first in the fetches under way.
   */
  fetchElapsedMs?: (id: number) => number | undefined;
  /**
   * The in-flight fetch of `id`'s rate over its latest observation window, bits/s (undefined:
   * unknown). A flow ramping out of slow start runs faster now than its average since the start,
   * so a slow fetch is projected at the better of the two: the average alone took fetches that
   * then finished in time for misses, and x hunted up and down (15M-4s at 224 ms, x 1 → 3 → 2 → 3).
   */
  recentBps?: (id: number) => number | undefined;
  /** Wait before a new fetch's first byte: the request's RTT, ms (default 0). */
  firstByteMs?: number;
  /** Most byte ranges one segment may be fetched as (default 4). */
  maxSplit?: number;
  /**
   * A miss projected at most this late (ms) does not raise x; it stays in `late`, marked
   * `tolerated` (default 0: every miss counts). Raising x costs every receiver of the hold-x group
   * one segment length of forward buffer at once — its playlist's edge stands still for a segment
   * — while a segment that is d late costs them d, once: a constant lateness shifts arrivals, it
   * does not accumulate. So a raise for a miss much smaller than a segment trades a small,
   * absorbed delay for a large one (the Node edge passes half a segment).
   */
  toleranceMs?: number;
}

export interface DeadlineSplit {
  id: number;
  /** Fetch the segment as this many parallel byte ranges (≥ 2). */
  ranges: number;
  projectedMs: number;
  deadlineMs: number;
}

export interface DeadlineMiss {
  id: number;
  /** Completion projected with the most ranges the plan could give it. */
  projectedMs: number;
  deadlineMs: number;
  inFlight: boolean;
  /**
   * Late only because its fetch started (or starts) late: started when the segment was produced,
   * at the same rate, it would have been in time. Such a miss does not raise x.
   */
  backlog?: boolean;
  /**
   * Not started because every parallel slot is taken: projected to start when the slot it waits
   * for frees up (the earliest fetch under way to finish), and no burst slot was left for it.
   */
  queued?: boolean;
  /** Not a backlog, and projected late by no more than `toleranceMs`: does not raise x. */
  tolerated?: boolean;
  /** In flight: bytes received and the rate it was projected at (bits/s), for the log of a raise. */
  receivedBytes?: number;
  projectedBps?: number;
}

/** Wanted segments waiting for a parallel slot, and how many more fetches the plan may start for them. */
export interface DeadlineQueue {
  /** Ids not fetched for want of a slot, in the order they would get one (earliest deadline first). */
  ids: readonly number[];
  /** Fetches the plan may start beyond its parallel budget for a queued segment that cannot wait. */
  burst: number;
}

export interface DeadlineOutcome {
  split: DeadlineSplit[];
  late: DeadlineMiss[];
  /** Queued ids to start now, beyond the parallel budget: waiting for a slot they would miss their deadline. */
  burst: number[];
  /** x + 1 when some fetch will miss its deadline by more than the tolerance whatever the plan does now, and not only for starting late. */
  needsHold: number | undefined;
}

/**
 * Bytes/ms an in-flight fetch achieved since its first byte could arrive — once it has run more
 * than twice as long as the measured flow rate says the whole segment takes (`expectedMs`);
 * before that, Infinity: the measured flow rate stands. A fresh connection spends its first RTTs
 * in slow start, where its average so far is a fraction of what it will end at: projected at that
 * average, a 7.5 MB fetch 0.8 s into slow start at 224 ms (155 kB in) looks 28 s from done, and
 * would raise x for a segment that arrives in time. A fetch past twice its expected time is slow
 * whatever its phase.
 */
function ownRate(got: number, elapsedMs: number | undefined, firstByteMs: number, expectedMs: number): number {
  if (elapsedMs === undefined || !Number.isFinite(elapsedMs) || got <= 0 || elapsedMs < 2 * expectedMs) return Number.POSITIVE_INFINITY;
  const bodyMs = elapsedMs - firstByteMs;
  return bodyMs < 100 ? Number.POSITIVE_INFINITY : got / bodyMs;
}

/** Validates the deadline options once; returns the numbers the projection needs. */
export function readDeadlines(d: PrefetchDeadlines): { maxSplit: number; firstByteMs: number; toleranceMs: number } {
  if (!Number.isFinite(d.nowMs)) invalid('deadlines.nowMs', d.nowMs);
  if (!(d.flowBps > 0) || !Number.isFinite(d.flowBps)) invalid('deadlines.flowBps', d.flowBps);
  if (typeof d.segmentBytes !== 'function' || typeof d.deadlineMs !== 'function')
    invalid('deadlines', 'segmentBytes and deadlineMs must be functions');
  const maxSplit = d.maxSplit ?? 4;
  if (!Number.isInteger(maxSplit) || maxSplit < 1 || maxSplit > 64) invalid('deadlines.maxSplit', maxSplit);
  const firstByteMs = d.firstByteMs ?? 0;
  if (!(firstByteMs >= 0) || !Number.isFinite(firstByteMs)) invalid('deadlines.firstByteMs', firstByteMs);
  const toleranceMs = d.toleranceMs ?? 0;
  if (!(toleranceMs >= 0) || !Number.isFinite(toleranceMs)) invalid('deadlines.toleranceMs', toleranceMs);
  return { maxSplit, firstByteMs, toleranceMs };
}

/**
 * Deadline check of a prefetch plan (issue 19, seed 001's deadline idea on the backhaul). Each
 * new fetch is projected at now + first byte + bytes / (ranges × flow rate); one that would miss
 * its deadline on one flow is split into the fewest byte ranges that meet it, from the parallel
 * budget the plan left over, up to `maxSplit`. Each in-flight fetch is projected from the bytes it
 * still lacks. A fetch that misses its deadline anyway means x is too small for this backhaul:
 * a larger x gives every later segment one more segment length (needsHold = x + 1). Splitting
 * costs no latency and holding more costs l_seg, so splitting comes first.
 *
 * A wanted segment with no parallel slot left (`queue`) starts when a fetch under way finishes:
 * the k-th queued one when the k-th earliest projected fetch ends. One that would then miss its
 * deadline is started now instead, beyond the budget, while `queue.burst` allows — starting
 * earlier costs no latency either — and otherwise is late. Without this a queued segment would
 * first be looked at when it got its slot, with its deadline already close, and x raised for it
 * where starting it earlier would have done.
 *
 * With `producedAtMs`, only a miss that would happen even for a fetch started at the segment's
 * production, at the rate it is projected at, asks for x + 1: that is what x buys (x segment
 * lengths between production and visibility). A segment first wanted long after it was produced
 * misses for its late start; the same run with the queue rule alone raised 2 → 3 → 4 for two such
 * segments in its first 10 s ("72 not started, 2.94 s late").
 *
 * With `toleranceMs`, a miss projected no later than that does not ask for x + 1 either (see the
 * option): 50M-10s at 334 ms, a raise for a fetch 0.69 s late froze a receiver's playlist for
 * 10 s and it stalled 4.8 s; 50M-2s at 224 ms raised three times for fetches 0.01–0.06 s late.
 */
export function planDeadlines(
  d: PrefetchDeadlines,
  fetch: readonly number[],
  inFlight: readonly number[],
  budget: number,
  hold: number,
  queue?: DeadlineQueue,
): DeadlineOutcome {
  const { maxSplit, firstByteMs, toleranceMs } = readDeadlines(d);
  const bytesPerMs = d.flowBps / 8 / 1000;
  const split: DeadlineSplit[] = [];
  const late: DeadlineMiss[] = [];
  // When each fetch under way or started now is projected to end: the slots queued segments wait for.
  const ends: number[] = [];
  let spare = budget;

  for (const id of fetch) {
    const deadline = d.deadlineMs(id);
    const bytes = positiveBytes(d.segmentBytes(id), id);
    const single = d.nowMs + firstByteMs + bytes / bytesPerMs;
    if (deadline === undefined) {
      ends.push(single);
      continue;
    }
    const window = deadline - d.nowMs - firstByteMs;
    const needed = window > 0 ? Math.ceil(bytes / (bytesPerMs * window) - 1e-9) : Number.POSITIVE_INFINITY;
    if (needed <= 1) {
      ends.push(single);
      continue;
    }
    const ranges = Math.max(1, Math.min(needed, maxSplit, 1 + spare));
    spare -= ranges - 1;
    const projectedMs = d.nowMs + firstByteMs + bytes / (bytesPerMs * ranges);
    ends.push(projectedMs);
    if (ranges > 1) split.push({ id, ranges, projectedMs, deadlineMs: deadline });
    if (ranges < needed)
      late.push(miss(d, { id, projectedMs, deadlineMs: deadline, inFlight: false }, d.nowMs, firstByteMs + bytes / (bytesPerMs * ranges)));
  }
  for (const id of inFlight) {
    const deadline = d.deadlineMs(id);
    const bytes = positiveBytes(d.segmentBytes(id), id);
    const got = d.receivedBytes?.(id) ?? 0;
    if (!(got >= 0) || !Number.isFinite(got)) invalid('deadlines.receivedBytes', got);
    const expectedMs = firstByteMs + bytes / bytesPerMs;
    const recent = d.recentBps?.(id);
    if (recent !== undefined && !(recent >= 0 && Number.isFinite(recent))) invalid('deadlines.recentBps', { id, bps: recent });
    const own = ownRate(got, d.fetchElapsedMs?.(id), firstByteMs, expectedMs);
    // Past its expected time the fetch is projected at its own pace: the better of its average and its recent rate.
    const rate = Math.min(bytesPerMs, Number.isFinite(own) && recent !== undefined ? Math.max(own, recent / 8 / 1000) : own);
    const projectedMs = d.nowMs + Math.max(0, bytes - got) / rate;
    ends.push(projectedMs);
    const elapsed = d.fetchElapsedMs?.(id);
    const startedMs = elapsed === undefined || !Number.isFinite(elapsed) ? undefined : d.nowMs - elapsed;
    if (deadline !== undefined && projectedMs > deadline)
      late.push(
        miss(
          d,
          { id, projectedMs, deadlineMs: deadline, inFlight: true, receivedBytes: got, projectedBps: rate * 8 * 1000 },
          startedMs,
          firstByteMs + bytes / rate,
        ),
      );
  }
  const burst = queue === undefined ? [] : planQueue(d, queue, ends, firstByteMs, bytesPerMs, late);
  // A backlog does not raise x anyway: only a miss the tolerance itself spares is marked.
  for (const [i, l] of late.entries())
    if (l.backlog !== true && l.projectedMs - l.deadlineMs <= toleranceMs) late[i] = { ...l, tolerated: true };
  return { split, late, burst, needsHold: late.some((l) => l.backlog !== true && l.tolerated !== true) ? hold + 1 : undefined };
}

/**
 * A miss, marked `backlog` when its start (`startMs`) explains it: the whole fetch (`wholeMs`,
 * first byte included, at the rate it is projected at) would have been in time from the segment's
 * production, but is not from when it started. A fetch that started in time and then slowed or
 * stopped (an origin that hangs) is not a backlog; neither is one whose start is unknown.
 */
function miss(d: PrefetchDeadlines, m: DeadlineMiss, startMs: number | undefined, wholeMs: number): DeadlineMiss {
  const producedAt = d.producedAtMs?.(m.id);
  if (producedAt === undefined || startMs === undefined) return m;
  if (!Number.isFinite(producedAt)) invalid('deadlines.producedAtMs', { id: m.id, ms: producedAt });
  return producedAt + wholeMs <= m.deadlineMs && startMs + wholeMs > m.deadlineMs ? { ...m, backlog: true } : m;
}

/** Which queued segments start now (beyond the budget) and which are late waiting for a slot; see planDeadlines. */
function planQueue(
  d: PrefetchDeadlines,
  queue: DeadlineQueue,
  ends: number[],
  firstByteMs: number,
  bytesPerMs: number,
  late: DeadlineMiss[],
): number[] {
  if (!Number.isInteger(queue.burst) || queue.burst < 0) invalid('deadlines.queue.burst', queue.burst);
  ends.sort((a, b) => a - b);
  const burst: number[] = [];
  let slot = 0;
  for (const id of queue.ids) {
    const deadline = d.deadlineMs(id);
    if (deadline === undefined) continue; // no deadline: it may wait (these come last in the queue)
    const single = firstByteMs + positiveBytes(d.segmentBytes(id), id) / bytesPerMs;
    // A slot held by a fetch the plan cannot see (outside the wanted window) is assumed to free up
    // within one such fetch: a guess, but a finite one — Infinity would call every queued segment late.
    const startMs = slot < ends.length ? Math.max(d.nowMs, ends[slot]!) : d.nowMs + single;
    if (startMs + single <= deadline) {
      slot += 1;
      continue;
    }
    if (burst.length < queue.burst) {
      burst.push(id);
      if (d.nowMs + single > deadline)
        late.push(miss(d, { id, projectedMs: d.nowMs + single, deadlineMs: deadline, inFlight: false }, d.nowMs, single));
      continue;
    }
    late.push(miss(d, { id, projectedMs: startMs + single, deadlineMs: deadline, inFlight: false, queued: true }, startMs, single));
    slot += 1;
  }
  return burst;
}

function positiveBytes(v: number, id: number): number {
  if (!(v > 0) || !Number.isFinite(v)) invalid('deadlines.segmentBytes', { id, bytes: v });
  return v;
}

function invalid(field: string, value: unknown): never {
  throw new EthleError('ERR_PLANNER_INVALID_INPUT', `${field} is out of range: ${JSON.stringify(value)}`, { field, value });
}
