import type { SegmentStart } from '@ethle/core';

/** What to do with a receiver whose radio is slower than the stream's bitrate (eq. 3 fails). */
export type RanFailAction = 'redirect-307' | 'redirect-302' | 'pass-through';

export interface OriginConfig {
  /** Path prefix on the edge when several origins are configured (`/{name}/live/...`). */
  name: string;
  /** Base URL of the origin, e.g. `http://origin.example:8081` (http or https, no query). */
  url: string;
  /**
   * The origin's base URL as receivers reach it, for redirects (eq. 3). Usually `url`; it differs
   * when the edge reaches the origin on an address its receivers cannot (a private backhaul, a
   * service name inside the operator's network).
   */
  publicUrl: string;
}

export interface RniConfig {
  /** Base URL of an ETSI GS MEC 012 RNI API, e.g. `http://mec:8080/rni/v2`. */
  url: string;
  /** How long one RNI answer is trusted for a UE before asking again (ms). */
  cacheMs: number;
  /** Timeout of an RNI query (ms); on timeout the edge falls back to CMCD / the default. */
  timeoutMs: number;
}

/** The validated configuration of one edge instance. Built once by createEdgeConfig(). */
export interface EdgeConfig {
  origins: OriginConfig[];
  /** Listen address (default 127.0.0.1; set 0.0.0.0 on a MEC box). */
  host: string;
  /** Listen port (0 = any free port). */
  port: number;
  /** 'auto': x from the core model and measured context, with policy groups; N: every receiver gets x = N. */
  hold: 'auto' | number;
  /**
   * 'edge' (default): the edge near the receivers, which holds. 'parent': a tier between edges
   * and the origin (a regional edge): it prefetches and fans out, one flow per segment, but never
   * holds (x = 0) and says so (X-Ethle-Role: parent) — x is decided where the receivers are.
   */
  role: 'edge' | 'parent';
  /**
   * An edge fleet with content steering: this edge's pathway id and host as players reach it,
   * its peers (other edges) and the origin as the last resort; the steering TTL (s). Undefined:
   * no steering.
   */
  fleet: FleetConfig | undefined;
  /**
   * Portable sessions: the fleet's shared secret that signs the session tokens this edge issues
   * and verifies the ones it adopts (HMAC-SHA256), and how long a token is valid (s). Undefined:
   * no tokens (sessions stay at the edge that made them).
   */
  sessionTokens: { secret: string; ttlSeconds: number } | undefined;
  /** The egress this edge may send to receivers (Mbit/s), for its load report; undefined: unknown. */
  egressCapacityMbps: number | undefined;
  /**
   * A QoE collector (@ethle/collector) the edge reports its sessions' facts to (`POST {url}/v1/edge`
   * every intervalMs), labelled `label` — the name players give this edge in their beacons'
   * `meta.edge` (default: the edge's host:port). Undefined: none; GET /_ethle/sessions still answers.
   */
  collector: { url: string; label: string | undefined; intervalMs: number } | undefined;
  /**
   * Low-latency streams (LL-HLS with parts, LL-DASH with chunked segments): hold the newest N parts
   * (chunks) instead of whole segments; LL features stay (blocking reload and delta updates are
   * answered by the edge). Undefined (default): LL streams are held in whole segments like any
   * other (LL-HLS stripped when x ≥ 1). Non-LL streams are unaffected. 'auto': N per stream from
   * the part model (the core policy's AutoParts: backhaul RTT, part length, bitrate, the
   * receiver's radio estimate), rising only, at most `maxHold`.
   */
  holdParts: number | 'auto' | undefined;
  /**
   * LL-HLS blocking reloads (`_HLS_msn`/`_HLS_part`) parked at once per stream, waiting for the
   * edge's view to list what they ask for; one more gets 503 ERR_EDGE_BLOCKED_FULL.
   */
  maxBlockedPerStream: number;
  /** Operator cap on x and on parallel origin connections per stream (paper Section III-B). */
  maxHold: number;
  /** Initial congestion window of the backhaul in MSS (the model's IW; Linux sends 10). */
  initialWindow: number;
  /** Backhaul RTT to use instead of the measured one (ms), e.g. behind a tunnel; undefined = measure. */
  backhaulRttMs: number | undefined;
  /**
   * One backhaul flow is capped at window/RTT: the edge's receive window on its origin sockets
   * (default: half of Linux's tcp_rmem max, what autotuning can reach) and the origin's send
   * window (default unknown: not capped). Bytes.
   */
  backhaulReceiveWindowBytes: number | undefined;
  backhaulSendWindowBytes: number | undefined;
  /** Backhaul loss rate for the model's Mathis cap, [0, 1] (default none). */
  backhaulLossRate: number | undefined;
  /**
   * Lowering x within hold-x (auto): the measured backhaul must support x − 1 for this many
   * segment periods and this many samples in a row first (default 4 and 3: raise fast, lower
   * slowly). Lower values let x come back down sooner after a slow patch, at the risk of lowering
   * into the next one.
   */
  lowerHoldAfterSegments: number;
  lowerHoldAfterSamples: number;
  /**
   * auto's floor for x within hold-x: 'model' (default, never below the model's x) or 'measured'
   * (below it, to 1, once measured steady-state backhaul rates support it; HoldPolicyConfig.holdFloor).
   */
  holdFloor: 'model' | 'measured';
  /**
   * How auto's model takes a segment fetch to start on the backhaul: 'slow-start' (the paper's
   * premise: the origin restarts an idle connection from its initial window, as CUBIC and Reno do
   * on Linux) or 'warm' (the origin keeps its window across idle — BBR, or
   * `tcp_slow_start_after_idle` = 0 — so a fetch is one RTT plus the bytes at the window-limited
   * rate) or 'learn' (default: slow-start until the edge's own fetches after idle show the window
   * kept, OriginStartLearner). 'learn' is the default because it is never less safe than the
   * paper's model — it leaves it only on unanimous evidence — and an edge that runs for days in
   * front of a BBR or CDN-tuned origin should not make every later receiver pay for an assumption
   * its own fetches have disproved. 'warm' stays the operator's to state: it is the only setting
   * that helps receivers who join before the edge has learnt, and if wrong it holds too few
   * segments until the measured rate raises x (how much that costs behind a CUBIC origin is what
   * the CUBIC matrix measures: docs/experiments/cubic-matrix/). It sets the x receivers join at;
   * HoldPolicyConfig.segmentStart.
   */
  segmentStart: SegmentStart | 'learn';
  /** Receiver radio throughput when neither RNI nor CMCD tells (Mbit/s). */
  defaultRanMbps: number;
  rni: RniConfig | undefined;
  ranFailAction: RanFailAction;
  /**
   * auto: how long a receiver's radio measurements must cover before eq. 3 failing sends it away
   * (`ranFailAction`): their time-weighted mean over the window and the latest must both be at or
   * below the bitrate (ms, default 30 000; 0 = the last two measurements). HoldPolicyConfig.redirectSustainMs
   * says why: a redirect is for good, and a shared cell dips for seconds below a stream it
   * carries on average.
   */
  redirectSustainMs: number;
  /**
   * `maxBytes`: every media byte the edge holds at most — its cache and what it holds outside it
   * for receivers (objects not cached, entries still read after leaving the cache, unplanned
   * objects streamed through): one budget (ByteBudget, `ethle_held_bytes`). A fetch whose bytes
   * would not fit waits, and its origin connection with it. `maxAgeMs`: a cached segment's life.
   */
  cache: { maxBytes: number; maxAgeMs: number };
  /** A stream without receiver requests for this long goes idle: poller stops, cache ages out. */
  streamIdleMs: number;
  /** A session not seen for this long is forgotten. */
  sessionIdleMs: number;
  /** Origin timeouts: until response headers, and between body chunks (ms). */
  originHeadersTimeoutMs: number;
  originBodyTimeoutMs: number;
  /**
   * Every this many ms a GET of each origin's base URL (0 = never). Keeps one warm backhaul
   * connection per origin, so a new stream's first manifest pays no TCP handshake over the long
   * RTT, and keeps the RTT estimate current before any stream (the paper measures it per source).
   */
  originProbeMs: number;
  /** How long the last good manifest is served while the origin's is broken or unreachable (ms). */
  manifestStaleMs: number;
  /** Longest accepted request target (bytes); longer gets 414. */
  maxUrlLength: number;
  /**
   * Query parameters of a manifest URL that make a different stream (default none): any other
   * query — a player's cache buster, a token that changes per viewer, LL-HLS `_HLS_msn` — maps to
   * the same stream and the same origin poller.
   */
  streamQueryParams: string[];
  /** Active streams at most; a manifest request for a new stream beyond gets 503. */
  maxStreams: number;
  /** Receiver sessions remembered at most (least recently seen forgotten first). */
  maxSessions: number;
  /** Receiver connections open at most (Node's server.maxConnections); more are refused. */
  maxConnections: number;
  /**
   * Receiver connections one client may hold open at once (an IPv4 address, an IPv6 /64); more
   * from it are refused, so one client cannot take every slot of `maxConnections`. Behind a proxy
   * or NAT that many receivers share, raise it; 0 in the input turns it off (= maxConnections).
   */
  maxConnectionsPerClient: number;
  /** Segment fetches running at once to one origin, all streams together. */
  originMaxFetches: number;
  /** Segment fetches queued at most per origin; beyond, receivers get 503 with Retry-After. */
  originMaxQueued: number;
  /** Receivers: time to send a request's headers (slowloris), and idle keep-alive (ms). */
  requestHeadersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** On close (SIGTERM): how long transfers in progress may finish before they are cut (ms). */
  drainMs: number;
  /**
   * The slowest receiver served (Mbit/s, default 1): a segment response may wait on its receiver
   * (bytes the socket would not take) for its length at this rate, at least `sendDeadlineMinMs`
   * (default 10 s); a slower receiver is cut and counted (`ethle_receivers_cut_total`). A receiver
   * that slow cannot play the object in time, and meanwhile holds it and a connection.
   */
  minReceiverMbps: number;
  sendDeadlineMinMs: number;
  /** TLS key/cert paths (PEM); both or neither. */
  tls: { keyPath: string; certPath: string } | undefined;
  /** pino level (default 'warn'; the CLI defaults to 'info'); 'silent' turns logging off. */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

export interface FleetConfig {
  pathway: string;
  /** This edge's base URL as players reach it (steering server URI and host). */
  publicUrl: string;
  peers: Array<{ id: string; url: string }>;
  /** The origin's pathway id (last resort), or undefined to never steer players to the origin. */
  originPathway: string | undefined;
  ttlSeconds: number;
  /**
   * A steering service apart from the edges (`ethle-edge steer`): the steering URI the manifests
   * name instead of this edge's own /_ethle/steering. Undefined: this edge steers.
   */
  steeringUrl: string | undefined;
}

/** Input to createEdgeConfig(): every field optional except an origin. */
export interface EdgeConfigInput {
  /** One origin URL, or several named origins. */
  origin?: string;
  /** With `origin`: the origin as receivers reach it, when that differs (see OriginConfig.publicUrl). */
  originPublicUrl?: string;
  origins?: Array<{ name: string; url: string; publicUrl?: string }>;
  host?: string;
  port?: number;
  hold?: 'auto' | number | string;
  role?: 'edge' | 'parent';
  fleet?: {
    pathway: string;
    publicUrl: string;
    peers?: Array<{ id: string; url: string }>;
    originPathway?: string;
    ttlSeconds?: number;
    steeringUrl?: string;
  };
  sessionTokens?: { secret: string; ttlSeconds?: number };
  egressCapacityMbps?: number;
  collector?: { url: string; label?: string; intervalMs?: number };
  maxHold?: number;
  holdParts?: number | 'auto';
  maxBlockedPerStream?: number;
  initialWindow?: number;
  backhaulRttMs?: number;
  backhaulReceiveWindowBytes?: number;
  backhaulSendWindowBytes?: number;
  backhaulLossRate?: number;
  lowerHoldAfterSegments?: number;
  lowerHoldAfterSamples?: number;
  holdFloor?: 'model' | 'measured';
  segmentStart?: SegmentStart | 'learn';
  defaultRanMbps?: number;
  rni?: { url: string; cacheMs?: number; timeoutMs?: number };
  ranFailAction?: RanFailAction;
  redirectSustainMs?: number;
  cache?: { maxBytes?: number; maxAgeMs?: number };
  streamIdleMs?: number;
  sessionIdleMs?: number;
  originHeadersTimeoutMs?: number;
  originProbeMs?: number;
  originBodyTimeoutMs?: number;
  manifestStaleMs?: number;
  maxUrlLength?: number;
  streamQueryParams?: string[];
  maxStreams?: number;
  maxSessions?: number;
  maxConnections?: number;
  maxConnectionsPerClient?: number;
  originMaxFetches?: number;
  originMaxQueued?: number;
  requestHeadersTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
  drainMs?: number;
  minReceiverMbps?: number;
  sendDeadlineMinMs?: number;
  tls?: { keyPath: string; certPath: string };
  logLevel?: EdgeConfig['logLevel'];
}
