import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { heapAfterFullGc } from './heapAfterFullGc.js';

/**
 * The edge's Prometheus metrics, in a registry of its own (several edges in one process — tests —
 * must not collide). Stream labels are `{origin}{path}`; a stream's label values are removed when
 * it goes idle so cardinality follows the active streams. `aggregator` says how the workers of
 * `serve --workers` combine (aggregateBox): counts add up (the default), x and lead take the
 * largest, RTTs and rates the mean.
 */
export class EdgeMetrics {
  readonly registry = new Registry();
  readonly hold = new Gauge({
    name: 'ethle_hold_segments',
    help: 'x applied to a policy group of a stream',
    labelNames: ['stream', 'group'],
    aggregator: 'max',
    registers: [this.registry],
  });
  readonly lead = new Gauge({
    name: 'ethle_lead_segments',
    help: 'segments the edge holds complete beyond the most advanced receiver request',
    labelNames: ['stream'],
    aggregator: 'max',
    registers: [this.registry],
  });
  readonly receivers = new Gauge({
    name: 'ethle_receivers',
    help: 'active receiver sessions per policy group, confirmed (seen again a reload later)',
    labelNames: ['stream', 'group'],
    registers: [this.registry],
  });
  readonly originFetches = new Counter({
    name: 'ethle_origin_fetches_total',
    help: 'origin fetches by kind and outcome',
    labelNames: ['origin', 'kind', 'outcome'],
    registers: [this.registry],
  });
  readonly originTimeouts = new Counter({
    name: 'ethle_origin_timeouts_total',
    help: 'origin fetches that ran out of time (outcome="timeout"), by which limit: idle (no byte for the idle timeout), slow (at its recent rate the rest would not arrive within its deadline), deadline (the outer bound), or undici timeouts (headers, body, connect)',
    labelNames: ['origin', 'kind', 'reason'],
    registers: [this.registry],
  });
  readonly cacheRequests = new Counter({
    name: 'ethle_cache_requests_total',
    help: 'segment requests by cache result (hit, coalesced, miss)',
    labelNames: ['result'],
    registers: [this.registry],
  });
  readonly cacheBypass = new Counter({
    name: 'ethle_cache_bypass_total',
    help: 'segments served through uncached because the cache was full',
    registers: [this.registry],
  });
  readonly cacheEvictions = new Counter({
    name: 'ethle_cache_evictions_total',
    help: 'cache evictions by reason',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  readonly refetches = new Counter({
    name: 'ethle_origin_refetches_total',
    help: 'origin fetches of an object the edge had fetched before and dropped (the last 4,096 remembered), by why it left: evicted (cached, then evicted for room or age), failed (its fetch failed: cut, timed out, cancelled), uncached (served through, never cached)',
    labelNames: ['after'],
    registers: [this.registry],
  });
  readonly refetchedBytes = new Counter({
    name: 'ethle_origin_refetched_bytes_total',
    help: 'the sizes of the objects of ethle_origin_refetches_total (as known when they left: their length, else what had arrived), by why they left',
    labelNames: ['after'],
    registers: [this.registry],
  });
  readonly cacheBytes = new Gauge({ name: 'ethle_cache_bytes', help: 'bytes accounted in the segment cache', registers: [this.registry] });
  /** Read at each scrape (set by startEdge): the byte budget's figures. */
  heldSource: () => { cache: number; transit: number; max: number } = () => ({ cache: 0, transit: 0, max: 0 });
  readonly heldBytes = new Gauge({
    name: 'ethle_held_bytes',
    help: 'media bytes the edge holds, under one budget (cache.maxBytes): kind="cache" (reserved by cached objects), kind="transit" (held for receivers outside the cache), kind="max" (the budget)',
    labelNames: ['kind'],
    registers: [this.registry],
    collect: () => {
      const h = this.heldSource();
      this.heldBytes.set({ kind: 'cache' }, h.cache);
      this.heldBytes.set({ kind: 'transit' }, h.transit);
      this.heldBytes.set({ kind: 'max' }, h.max);
    },
  });
  readonly passThrough = new Counter({
    name: 'ethle_pass_through_total',
    help: 'objects streamed through without a whole copy: unplanned and larger than 1 MiB or of unknown length, or larger than the byte budget',
    registers: [this.registry],
  });
  readonly budgetWaits = new Counter({
    name: 'ethle_budget_waits_total',
    help: 'origin fetches that waited for room in the byte budget (their origin connection waited too)',
    registers: [this.registry],
  });
  readonly receiversCut = new Counter({
    name: 'ethle_receivers_cut_total',
    help: 'segment responses cut because their receiver took longer than its send deadline (its length at minReceiverMbps, at least sendDeadlineMinMs)',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  readonly bytesIn = new Counter({
    name: 'ethle_origin_bytes_total',
    help: 'bytes received from origins, by fetch kind (manifest, segment: for a waiting receiver, prefetch) and outcome (ok, cancelled, timeout…: a fetch that failed counts what arrived)',
    labelNames: ['origin', 'kind', 'outcome'],
    registers: [this.registry],
  });
  readonly bytesOut = new Counter({
    name: 'ethle_receiver_bytes_total',
    help: 'segment bytes sent to receivers',
    registers: [this.registry],
  });
  readonly rttMs = new Gauge({
    name: 'ethle_backhaul_rtt_ms',
    help: 'backhaul RTT estimate (min of connect/TTFB over a window)',
    labelNames: ['origin'],
    aggregator: 'average',
    registers: [this.registry],
  });
  readonly backhaulMbps = new Gauge({
    name: 'ethle_backhaul_throughput_mbps',
    help: 'backhaul throughput per segment: model-predicted vs measured',
    labelNames: ['origin', 'source'],
    aggregator: 'average',
    registers: [this.registry],
  });
  /**
   * Every single-flow segment fetch's throughput, not just the last: _sum/_count is the mean
   * per-segment rate (the statistic of the paper's Table III), the buckets its spread. `flows`:
   * `steady` when no more segment flows shared the backhaul with it than steady state with the
   * stream's x runs (x + 1) — the ones the model's online check uses — `burst` when more did (a
   * new stream's first round, a start segment as ranges: its rate is a share), `cold` when its
   * connection had not carried a segment before (its rate includes the handshake and a first slow
   * start).
   */
  readonly backhaulSegmentMbps = new Histogram({
    name: 'ethle_backhaul_segment_mbps',
    help: 'throughput of single-flow segment fetches from the origin (≥ 100 kB), Mbit/s: steady state, in a burst of parallel fetches, or on a cold connection',
    labelNames: ['origin', 'flows'],
    buckets: [2, 5, 10, 15, 20, 30, 40, 50, 60, 80, 100, 150, 200, 300, 500],
    registers: [this.registry],
  });
  /**
   * Idle segment fetches by what they showed of the origin (OriginStartLearner): `warm` outpaced
   * slow start after an idle gap past the RTO, `slow-start` did not. The learnt start is warm
   * when the last five all were, slow start when any of them was not; logged when it changes.
   */
  readonly idleFetches = new Counter({
    name: 'ethle_origin_idle_fetches_total',
    help: 'segment fetches after an idle gap past the RTO on a warm connection, by whether they outpaced slow start (warm) or not (slow-start)',
    labelNames: ['origin', 'start'],
    registers: [this.registry],
  });
  readonly staleManifests = new Counter({
    name: 'ethle_manifest_stale_served_total',
    help: 'manifest responses served from the last good version while the origin was broken',
    labelNames: ['stream'],
    registers: [this.registry],
  });
  // Per origin, not per stream: a junk path is a "stream" that never was, and must not become a
  // series of its own (the stream is in the log line).
  readonly manifestErrors = new Counter({
    name: 'ethle_manifest_errors_total',
    help: 'origin manifests that could not be fetched or parsed',
    labelNames: ['origin', 'reason'],
    registers: [this.registry],
  });
  readonly prefetchSkipped = new Counter({
    name: 'ethle_prefetch_skipped_total',
    help: 'segment prefetches the plan wanted and the edge did not start, by reason (budget: it did not fit the byte budget without evicting what receivers still need)',
    labelNames: ['origin', 'reason'],
    registers: [this.registry],
  });
  readonly prefetchBursts = new Counter({
    name: 'ethle_prefetch_bursts_total',
    help: 'segment prefetches started beyond x + 1 parallel fetches because waiting for a slot would miss their deadline',
    labelNames: ['origin'],
    registers: [this.registry],
  });
  readonly refused = new Counter({
    name: 'ethle_connections_refused_total',
    help: 'receiver connections refused or closed by the edge (max_connections, per_client, timeout, malformed)',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  readonly connections = new Gauge({ name: 'ethle_connections', help: 'receiver connections open', registers: [this.registry] });
  readonly clients = new Gauge({
    name: 'ethle_connection_clients',
    help: 'clients (IPv4 address, IPv6 /64) with a receiver connection open',
    registers: [this.registry],
  });
  readonly originQueue = new Gauge({
    name: 'ethle_origin_fetches_queued',
    help: 'segment fetches waiting for a slot, per origin',
    labelNames: ['origin'],
    registers: [this.registry],
  });
  readonly streams = new Gauge({ name: 'ethle_streams', help: 'active streams (origin pollers)', registers: [this.registry] });
  readonly sessions = new Gauge({ name: 'ethle_sessions', help: 'receiver sessions remembered', registers: [this.registry] });
  readonly unconfirmedSessions = new Gauge({
    name: 'ethle_sessions_unconfirmed',
    help: 'receiver sessions seen once only so far (at most a quarter of maxSessions)',
    registers: [this.registry],
  });
  readonly redirects = new Counter({
    name: 'ethle_redirects_total',
    help: 'receivers redirected to the origin (radio slower than bitrate, eq. 3)',
    registers: [this.registry],
  });
  readonly groupMoves = new Counter({
    name: 'ethle_group_moves_total',
    help: 'sessions moved from hold-0 to hold-x',
    registers: [this.registry],
  });
  readonly internalErrors = new Counter({
    name: 'ethle_internal_errors_total',
    help: 'bugs caught at the boundary of one request or origin fetch (that one failed; the edge kept serving), by where',
    labelNames: ['where'],
    registers: [this.registry],
  });
  readonly requests = new Counter({
    name: 'ethle_requests_total',
    help: 'receiver requests by kind and status',
    labelNames: ['kind', 'status'],
    registers: [this.registry],
    // Counted as plain numbers (countRequest), handed over as the counter is read.
    collect: () => this.#handRequestCountsOver(),
  });

  /** Segment bytes sent to receivers, as a plain number (the load report reads it per probe, no await). */
  sentBytes = 0;

  /**
   * Requests counted since `requests` was last read, by kind and status. Bounded as the counter's
   * own series: kinds are the code's, statuses HTTP's.
   */
  readonly #requestCounts = new Map<string, Map<number, { labels: { kind: string; status: string }; n: number }>>();

  /**
   * Count one receiver request. Hot path (every request): a number added to, no string made;
   * prom-client's inc hashes and validates the labels on every call, so the counts go to
   * `requests` only when it is read (/metrics, the box's numbers).
   */
  countRequest(kind: string, status: number): void {
    let byStatus = this.#requestCounts.get(kind);
    if (byStatus === undefined) {
      byStatus = new Map();
      this.#requestCounts.set(kind, byStatus);
    }
    const c = byStatus.get(status);
    if (c === undefined) byStatus.set(status, { labels: { kind, status: String(status) }, n: 1 });
    else c.n += 1;
  }

  #handRequestCountsOver(): void {
    for (const byStatus of this.#requestCounts.values())
      for (const c of byStatus.values()) {
        if (c.n === 0) continue;
        this.requests.inc(c.labels, c.n);
        c.n = 0;
      }
  }

  /**
   * Beside prom-client's heap (whatever it is when scraped, garbage included): its floor, what a
   * leak raises and GC timing does not. With the process metrics only.
   */
  readonly heapLive = new Gauge({
    name: 'ethle_heap_live_bytes',
    help: 'V8 heap in use just after the last full (mark-compact) GC: live objects, no garbage (0 before the first)',
    registers: [],
    collect() {
      this.set(heapAfterFullGc() ?? 0);
    },
  });

  constructor(defaultMetrics = false) {
    if (!defaultMetrics) return;
    collectDefaultMetrics({ register: this.registry });
    heapAfterFullGc(); // observing from now: the first full GC after start is the first value
    this.registry.registerMetric(this.heapLive);
  }

  /** Forget a stream's series when it goes idle. */
  dropStream(stream: string): void {
    for (const group of ['hold-0', 'hold-x']) {
      this.hold.remove({ stream, group });
      this.receivers.remove({ stream, group });
    }
    this.lead.remove({ stream });
    this.staleManifests.remove({ stream });
  }
}
