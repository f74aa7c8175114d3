/**
 * One run of one player under one scheme: the results file format the experiments write and the
 * dashboard reads (docs/interfaces.md, "Results file format"). `report` is the probe's report().
 */
export interface RunScenario {
  /** Stream name, e.g. `15M-2s`. */
  stream: string;
  /** The low-latency renditions (LL-HLS, LL-DASH) in the players' LL modes. */
  ll?: boolean;
  player: 'hls' | 'dash' | 'shaka';
  /** `e2e` (direct to origin), `hold-0`, `hold-N` (N segments forced), `auto` (edge decides), `parts-N` (LL: N parts held). */
  scheme: string;
  /** The edge's flags the scheme ran with (`--hold auto`, …; runs since issue 38; none for e2e): what a scheme name meant when it ran. */
  edgeArgs?: string[];
  /** Segments held (declared by the edge; 0 for e2e). */
  hold?: number;
  /** Backhaul RTT of the emulated path, ms (absent on loopback). */
  rttMs?: number;
  /** RAN profile name (e.g. `lte-a`, a trace file), absent on loopback. */
  ran?: string;
  repeat?: number;
  durationS: number;
  /** Player settings other than the defaults (e.g. a forward buffer capped to the MSE quota). */
  playerConfig?: Record<string, unknown>;
  /** TCP congestion control on the emulated hosts, when not BBR. */
  cc?: string;
  /** Hosts' maximum TCP buffer (bytes), when not Linux's defaults. */
  tcpBufferBytes?: number;
  /** Who played: Chromium with the QoE probe or a virtual receiver (runs since issue 16; older runs: Chromium). */
  receiver?: 'chromium' | 'virtual';
  /** Receivers in the cell (the run's report is receiver 0's). */
  receivers?: number;
  /** How the cell's receivers shared the radio, and when they joined (with more than one receiver). */
  cell?: 'shared' | 'per-user';
  join?: 'sync' | 'spread';
  /** Backhaul rate cap, Mbit/s, when capped. */
  backhaulMbps?: number;
  /** Random loss on the backhaul, % of packets each way (default none). */
  backhaulLossPct?: number;
  /** The user's live source the run played (`--source`; `stream` is then its name), behind a relaying origin. */
  source?: string;
  /** Departure lateness injected into the links' relays on purpose (netlab): a p99 target and VM-like stalls per minute. */
  injectLateness?: { p99Ms: number; stallsPerMinute: number; stallMs?: [number, number]; link?: 'ran' | 'backhaul' };
  /** SCHED_FIFO priority of the testbed relays' sending threads (absent: a run from before it was recorded, senders at 50). */
  senderPriority?: number;
}

export interface ProbeLatencySample {
  at: number;
  trueLatency: number | null;
  edgeDistance: number | null;
  holdSeconds?: number;
}

export interface ProbeStall {
  start: number;
  end: number;
  durationMs: number;
}

export interface ProbeSegment {
  kind: string;
  url: string;
  requestStart: number;
  lastByte: number;
  bytes: number;
  throughputBps: number;
  /** New or reused connection, when the probe could tell (Timing-Allow-Origin). */
  connection?: 'new' | 'reused';
}

/** The subset of the probe's report() the dashboard reads. */
export interface ProbeReportLike {
  startupMs: number | null;
  stalls: { count: number; totalMs: number; list: ProbeStall[] };
  latency: { current: number | null; mean: number | null };
  holdSeconds: number;
  latencySeries: ProbeLatencySample[];
  segments: { count: number; bytes: number; list: ProbeSegment[] };
}

export interface EdgeFigures {
  x?: number;
  modelBackhaulMbps?: number;
  /** Mean throughput of the run's single-flow segment fetches from the origin (edge histogram). Run files written before commit 4bdb3d1 hold the last fetch's instead. */
  measuredBackhaulMbps?: number;
  /** How many fetches that mean is over. */
  measuredBackhaulFetches?: number;
  /** Mean over the fetches made in steady state, not in a burst of parallel fetches — what the edge's online model check uses. Run files written before commit bb073c5 do not have it. */
  steadyBackhaulMbps?: number;
  steadyBackhaulFetches?: number;
  /** The run's last single-flow segment fetch. */
  lastBackhaulMbps?: number;
  /** Every change of x in auto mode, from the edge's log: seconds since the edge started, the stream (an HLS ladder's variants each have their own x; absent in older run files), x, the backhaul rate it was decided on and why. */
  holdChanges?: { atS: number; stream?: string; hold: number; backhaulMbps: number; reason: string }[];
  /** Every receiver segment request the edge saw (its debug log): the origin path, the cache result and how many bytes of it the edge had at that moment. */
  segmentRequests?: { atS: number; path: string; result: 'hit' | 'coalesced' | 'miss'; bytesAtEdge: number }[];
  /** Origin fetches per segment (live-origin /stats `fetches`: parallel byte ranges of one segment count once); 1 = one origin flow. */
  originRequestsPerSegment?: number;
}

export interface RunResult {
  v: 1;
  id: string;
  startedAt: string;
  scenario: RunScenario;
  report: ProbeReportLike;
  edge?: EdgeFigures;
  /** The emulated links' counters at the end of the run (netlab relays): packets, bytes, queue drops, random-loss drops, per direction. */
  links?: Record<'ran' | 'backhaul', Record<'up' | 'down', { packets: number; bytes: number; drops: number; lossDrops: number }>>;
  /**
   * Why the run does not count (the bars it failed, where and what; netlab judgeRun): it measured
   * the machine or the testbed, not the network. Tables leave it out of their means and count it;
   * charts draw it marked.
   */
  invalid?: string;
}

export interface ResultSet {
  v: 1;
  title?: string;
  runs: RunResult[];
}
