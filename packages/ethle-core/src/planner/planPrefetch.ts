import { EthleError } from '../errors/EthleError.js';
import { planDeadlines, readDeadlines, type DeadlineMiss, type DeadlineSplit, type PrefetchDeadlines } from './planDeadlines.js';
import { rangesByNeed } from './rangesByNeed.js';

/** Anything that can answer "is segment `id` already here?" (a Set, or the edge's cache). */
export interface IdSet {
  has(id: number): boolean;
}

export interface PrefetchInput {
  /**
   * Segment ids the origin has produced (latest origin manifest), ascending. Ids missing between
   * the first and the last (a gap in the origin's numbering) are never fetched.
   */
  produced: readonly number[];
  /**
   * The most advanced segment id any receiver of the stream has requested (across policy groups:
   * the edge stays x ahead of the most advanced receiver, paper Section III-C), or undefined
   * before any segment request.
   */
  mostAdvanced: number | undefined;
  /**
   * Optional: the most advanced requested id of each policy group (hold-0, hold-x; undefined for a
   * group with no request yet). The edge then keeps x ahead of each group's head, not only of the
   * overall most advanced one: a hold-x group that trails a hold-0 group by more than x (e.g. it
   * joined later, or a receiver was moved into it) would otherwise find its next segments missing.
   * `mostAdvanced` may then be undefined; the largest head counts as most advanced.
   */
  groupHeads?: readonly (number | undefined)[];
  /** Segments receivers are waiting for right now (requested, not yet local); fetched first. */
  waiting?: readonly number[];
  /** Cached locally. */
  cached: IdSet;
  /** Being fetched from the origin. */
  inFlight: IdSet;
  /** How many origin fetches are in flight (bounded by `maxParallel`). */
  inFlightCount: number;
  /** x: segments held back from the hold-x group. */
  hold: number;
  /** Cap on parallel origin fetches (operator's x_max + 1 for the waited-for one, typically). */
  maxParallel: number;
  /**
   * With `deadlines`: parallel fetches the plan may reach, beyond `maxParallel`, for a wanted
   * segment that would miss its deadline waiting for a slot (default `maxParallel`: no burst).
   * The edge passes its operator cap: x + 1 connections is the paper's steady state, not a limit
   * worth a larger x.
   */
  burstParallel?: number;
  /**
   * Before any receiver has requested a segment: how many segments behind the newest segment it
   * can see a player starts (hls.js starts 3 target durations behind the live edge: the third
   * segment from the end). Default 3.
   */
  startBehind?: number;
  /**
   * Before any receiver has requested a segment: the x a new player is shown (default `hold`).
   * Auto shows a new player 0 when eq. 1 holds for the default radio, while the hold-x group's x
   * is at least 1: the start is anticipated where that player starts, one segment later.
   */
  startHold?: number;
  /**
   * Optional deadline awareness (planDeadlines): with it, wanted segments are fetched earliest
   * deadline first (after the waited-for ones), and the plan says which fetches to split into
   * byte ranges and whether x must grow. Without it the plan is exactly as before.
   */
  deadlines?: PrefetchDeadlines;
  /**
   * Parallel byte ranges one segment fetch may be split into (the edge's maxHold). With it the plan
   * says how many ranges each `visible` fetch takes (`visibleRanges`, rangesByNeed): the most for
   * the one a player needs first. Without it, no `visibleRanges`.
   */
  maxSplit?: number;
}

export interface PrefetchPlan {
  /** Ids to fetch now, in priority order: waited-for segments first, then oldest first. */
  fetch: number[];
  /**
   * The window the edge wants local around the most advanced head, [from, to] inclusive (before any
   * request: the anticipated start to the newest), or undefined when none of it is produced.
   */
  want: { from: number; to: number } | undefined;
  /** Segments beyond the most advanced receiver already local or in flight (the lead; goal: x). */
  lead: number;
  reason: 'idle' | 'anticipate-start' | 'catch-up' | 'keep-lead' | 'lead-reached' | 'parallel-cap';
  /** With `deadlines`: fetches in `fetch` to take as parallel byte ranges to meet their deadline. */
  split?: DeadlineSplit[];
  /** With `deadlines`: fetches (new or in flight) projected to miss their deadline anyway. */
  late?: DeadlineMiss[];
  /** With `deadlines`: x + 1 when a fetch will miss its deadline whatever the plan does. */
  needsHold?: number;
  /** With `deadlines`: ids in `fetch` started beyond `maxParallel` (burstParallel) to meet their deadline. */
  burst?: number[];
  /**
   * Ids in `fetch` the hold-x group already sees (id ≤ newest − x): the segments a new player
   * starts on, or a backlog. A player fetches what it is shown back to back, each as soon as it
   * has the one before, so the edge has no lead on any of them: each is wanted now, as a miss is,
   * and is taken as parallel byte ranges — on one fresh connection over a long backhaul, the
   * second start segment is still in slow start when the first has played out. Held ones (newer)
   * become visible a segment length apart and come one per connection (the paper's x
   * connections). Omitted when there are none.
   */
  visible?: number[];
  /**
   * With `maxSplit`: for each id in `visible`, how many parallel byte ranges to fetch it as, by
   * its rank in need order among the visible segments still to arrive (in flight or fetched now;
   * ascending id: a player asks for them in that order): rangesByNeed — at maxSplit 4, the first
   * needed 8, the next 4, then 2 each. Segments in flight keep their rank, so one that becomes
   * visible below them (x rose after they started) is ranked first. Omitted when `visible` is, and
   * without `maxSplit`.
   */
  visibleRanges?: Array<{ id: number; ranges: number }>;
}

/**
 * Which segments to fetch from the origin now (paper Section III-B/C, Fig. 3 and 4).
 *
 * The edge wants the most advanced receiver's segment M and the x after it local: M..M+x. While
 * behind, it fetches all missing ones in parallel (up to `maxParallel` in flight); once x ahead,
 * each newly produced segment is one more fetch, so the lead is kept with one connection. A new,
 * more advanced receiver (Fig. 4) moves M and so triggers parallel fetches at once. With
 * `groupHeads` the same holds for each policy group's head (windows are merged, oldest id first).
 *
 * Before any segment request (a player has only fetched the manifest) the edge anticipates where
 * the player will start — `startBehind` segments behind the newest it is shown, which is x behind
 * the newest produced — so startup is served locally. Fetches of segments players are already
 * shown (each of the start segments; a backlog) are marked `visible`: wanted at once, they are
 * taken as byte ranges, all at once but the most for the one a player needs first (`maxSplit`,
 * `visibleRanges`). Each still counts as one fetch against `maxParallel`: splitting changes how a
 * segment arrives, not how many are in flight.
 */
export function planPrefetch(input: PrefetchInput): PrefetchPlan {
  const { produced, mostAdvanced, cached, inFlight } = input;
  const hold = input.hold;
  if (!Number.isInteger(hold) || hold < 0 || hold > 100) invalid('hold', hold);
  if (!Number.isInteger(input.maxParallel) || input.maxParallel < 1 || input.maxParallel > 1000) invalid('maxParallel', input.maxParallel);
  if (!Number.isInteger(input.inFlightCount) || input.inFlightCount < 0) invalid('inFlightCount', input.inFlightCount);
  if (
    input.burstParallel !== undefined &&
    (!Number.isInteger(input.burstParallel) || input.burstParallel < 1 || input.burstParallel > 1000)
  )
    invalid('burstParallel', input.burstParallel);
  if (input.deadlines !== undefined) readDeadlines(input.deadlines);
  if (input.maxSplit !== undefined && (!Number.isInteger(input.maxSplit) || input.maxSplit < 1 || input.maxSplit > 1000))
    invalid('maxSplit', input.maxSplit);
  const startBehind = input.startBehind ?? 3;
  if (!Number.isInteger(startBehind) || startBehind < 1 || startBehind > 1000) invalid('startBehind', startBehind);
  const startHold = input.startHold ?? hold;
  if (!Number.isInteger(startHold) || startHold < 0 || startHold > 100) invalid('startHold', startHold);
  const heads: number[] = [];
  if (mostAdvanced !== undefined) heads.push(mostAdvanced);
  for (const h of input.groupHeads ?? []) if (h !== undefined) heads.push(h);
  for (const h of heads) if (!Number.isSafeInteger(h)) invalid(h === mostAdvanced ? 'mostAdvanced' : 'groupHeads', h);
  const top = heads.length === 0 ? undefined : Math.max(...heads);

  if (produced.length === 0) return withDeadlines(input, { fetch: [], want: undefined, lead: 0, reason: 'idle' }, [], 0, []);
  const oldest = produced[0]!;
  const newest = produced[produced.length - 1]!;
  if (!Number.isSafeInteger(oldest) || !Number.isSafeInteger(newest) || newest < oldest) invalid('produced', [oldest, newest]);
  // The usual manifest numbers its segments without gaps; only build a set when it does not.
  const gaps = produced.length !== newest - oldest + 1 ? new Set(produced) : undefined;
  const isProduced = (id: number) => id >= oldest && id <= newest && (gaps === undefined || gaps.has(id));

  const local = (id: number) => cached.has(id) || inFlight.has(id);

  // Windows the edge wants local, each [head, head + x] clipped to what is produced.
  const windows: Array<[number, number]> = [];
  if (top === undefined) {
    // No segment request yet: the newest segment a new player is shown is newest − startHold and
    // hls.js starts startBehind − 1 before it; a hold-0 player starts later, inside the same window.
    windows.push([newest - startHold - (startBehind - 1), newest]);
  } else {
    for (const h of [...new Set(heads)].sort((a, b) => a - b)) windows.push([h, h + hold]);
  }
  const ids: number[] = [];
  const wanted = new Set<number>();
  for (const [a, b] of windows) {
    for (let id = Math.max(a, oldest); id <= Math.min(b, newest); id++) {
      if (!wanted.has(id) && isProduced(id)) {
        wanted.add(id);
        ids.push(id);
      }
    }
  }
  ids.sort((a, b) => a - b);
  const mainFrom = Math.max(top ?? windows[0]![0], oldest);
  const mainTo = Math.min(top === undefined ? newest : top + hold, newest);

  let lead = 0;
  if (top !== undefined) {
    for (let id = top + 1; id <= top + hold && local(id); id++) lead += 1;
  }

  let budget = input.maxParallel - input.inFlightCount;
  const fetch: number[] = [];
  const taken = new Set<number>();
  const take = (id: number) => {
    if (budget <= 0 || taken.has(id) || local(id) || !isProduced(id)) return;
    fetch.push(id);
    taken.add(id);
    budget -= 1;
  };
  const order = input.deadlines === undefined ? ids : byDeadline(ids, input.deadlines);
  for (const id of input.waiting ?? []) take(id);
  for (const id of order) take(id);

  let missing = 0;
  for (const id of ids) if (!local(id) && !taken.has(id)) missing += 1;

  let reason: PrefetchPlan['reason'];
  if (missing > 0) reason = 'parallel-cap';
  else if (fetch.length === 0) reason = 'lead-reached';
  else if (top === undefined) reason = 'anticipate-start';
  else reason = fetch.length > 1 ? 'catch-up' : 'keep-lead';
  const plan: PrefetchPlan = { fetch, want: mainFrom <= mainTo ? { from: mainFrom, to: mainTo } : undefined, lead, reason };
  // The newest segment the hold-x group's playlist lists (before any request: a new player's).
  const shown = newest - (top === undefined ? startHold : hold);
  // The visible segments still to arrive, for their rank in need order (withVisible).
  const toArrive = (p: PrefetchPlan): number[] => {
    const fetching = new Set(p.fetch);
    const all = new Set([...(input.waiting ?? []), ...ids, ...p.fetch]);
    return [...all].filter((id) => id <= shown && (fetching.has(id) || (inFlight.has(id) && !cached.has(id)))).sort((a, b) => a - b);
  };
  if (input.deadlines === undefined) return withVisible(plan, shown, input.maxSplit, toArrive);
  // The planner runs on every request and manifest refresh: only a deadline plan pays for this.
  const fetching = [...new Set([...(input.waiting ?? []), ...ids])].filter((id) => inFlight.has(id) && !cached.has(id));
  // Wanted, produced, not local and without a slot: in the order they would get one.
  const queued = order.filter((id) => !local(id) && !taken.has(id) && isProduced(id));
  return withVisible(withDeadlines(input, plan, fetching, budget, queued), shown, input.maxSplit, toArrive);
}

/**
 * Marks the fetches of segments the hold-x group already sees (PrefetchPlan.visible) and, with
 * `maxSplit`, the ranges each takes by its rank among the visible ones still to arrive.
 */
function withVisible(
  plan: PrefetchPlan,
  shown: number,
  maxSplit: number | undefined,
  toArrive: (plan: PrefetchPlan) => number[],
): PrefetchPlan {
  const visible = plan.fetch.filter((id) => id <= shown);
  if (visible.length === 0) return plan;
  if (maxSplit === undefined) return { ...plan, visible };
  const need = toArrive(plan);
  return { ...plan, visible, visibleRanges: visible.map((id) => ({ id, ranges: rangesByNeed(need.indexOf(id), maxSplit) })) };
}

/** Earliest deadline first; segments without one after, oldest first (the default order). */
function byDeadline(ids: readonly number[], d: PrefetchDeadlines): number[] {
  const key = (id: number) => d.deadlineMs(id) ?? Number.POSITIVE_INFINITY;
  return [...ids].sort((a, b) => key(a) - key(b) || a - b);
}

function withDeadlines(
  input: PrefetchInput,
  plan: PrefetchPlan,
  inFlight: readonly number[],
  budget: number,
  queued: readonly number[],
): PrefetchPlan {
  if (input.deadlines === undefined) return plan;
  const burst = Math.max(0, Math.max(input.burstParallel ?? 0, input.maxParallel) - input.inFlightCount - plan.fetch.length);
  const o = planDeadlines(input.deadlines, plan.fetch, inFlight, Math.max(0, budget), input.hold, { ids: queued, burst });
  return {
    ...plan,
    ...(o.burst.length > 0 ? { fetch: [...plan.fetch, ...o.burst], burst: o.burst } : {}),
    split: o.split,
    late: o.late,
    ...(o.needsHold === undefined ? {} : { needsHold: o.needsHold }),
  };
}

function invalid(field: string, value: unknown): never {
  throw new EthleError('ERR_PLANNER_INVALID_INPUT', `${field} is out of range: ${JSON.stringify(value)}`, { field, value });
}
