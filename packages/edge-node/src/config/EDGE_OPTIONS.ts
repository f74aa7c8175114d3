import { HOLD_LIMITS, HOLD_POLICY_DEFAULTS, MAX_REDIRECT_SUSTAIN_MS, STREAM_DEFAULTS } from '@ethle/core';
import { readFileSync } from 'node:fs';
import { EdgeError } from '../errors/EdgeError.js';
import type { EdgeConfig, RanFailAction } from './EdgeConfig.js';
import type { EdgeOption, EdgeOptionKey } from './EdgeOption.js';
import { flagNumber } from './flagNumber.js';

const RAN_FAIL_ACTIONS: readonly RanFailAction[] = ['redirect-307', 'redirect-302', 'pass-through'];
const LOG_LEVELS: readonly EdgeConfig['logLevel'][] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * The smallest segment cache accepted. The planner keeps x + 1 segments per stream and never
 * plans more than fits (SegmentCache.hasRoom), but a cache that cannot hold one 4K segment
 * (Table I: up to 61 MB) serves every segment through uncached: one origin fetch per receiver.
 */
export const MIN_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Every option of the edge, once: its config key, rule (type, default, bounds) and flag with its
 * usage lines. `ethle-edge serve`'s parsing and usage, the config's known keys and its checks all
 * read this table, so a new option is one entry here (plus its type in EdgeConfig.ts, which the
 * compiler checks against the table below). Defaults the core owns are the core's, so the
 * service worker and this edge cannot drift. Entries with a flag come in the usage's order.
 */
const TABLE = [
  {
    key: 'origin',
    rule: { type: 'custom' },
    cli: {
      flag: 'origin',
      arg: 'URL',
      help: ["the one origin to serve (paths mirror the origin's)"],
      // The flag's origin replaces a config file's origins list.
      apply: (raw, input) => {
        input.origin = raw;
        delete input.origins;
      },
    },
  },
  {
    key: 'originPublicUrl',
    rule: { type: 'custom' },
    cli: {
      flag: 'origin-public-url',
      arg: 'URL',
      help: [
        'the origin as receivers reach it, for redirects (eq. 3), when the',
        'edge reaches it on an address they cannot (default: --origin)',
      ],
    },
  },
  {
    cli: {
      flag: 'config',
      arg: 'FILE',
      help: ['JSON config: every option, and "origins": [{"name","url","publicUrl"?}]', 'origins (then each is served under /{name}/...)'],
    },
  },
  {
    key: 'port',
    rule: { type: 'integer', min: 0, max: 65535, default: 8080 },
    cli: { flag: 'port', arg: 'N', help: ['listen port (default {default}; 0 = any)'] },
  },
  {
    key: 'host',
    rule: { type: 'text', default: '127.0.0.1', message: 'expected an address to listen on' },
    cli: { flag: 'host', arg: 'ADDR', help: ['listen address (default {default}; 0.0.0.0 on a MEC box)'] },
  },
  {
    key: 'hold',
    rule: { type: 'custom', default: 'auto' },
    cli: { flag: 'hold', arg: 'auto|N', help: ['auto (default): x from the model, policy groups; N: every receiver x = N'] },
  },
  {
    key: 'role',
    rule: {
      type: 'enum',
      values: ['edge', 'parent'],
      default: 'edge',
      message: () => "one of 'edge' (holds) or 'parent' (a tier that prefetches without holding)",
    },
    cli: {
      flag: 'role',
      arg: 'edge|parent',
      help: ['edge (default, holds) or parent: a tier between edges and the origin', 'that prefetches and fans out but never holds'],
    },
  },
  {
    key: 'maxHold',
    // The default rises to a fixed hold above it (createEdgeConfig).
    rule: { type: 'integer', min: 1, max: HOLD_LIMITS.max, default: HOLD_POLICY_DEFAULTS.maxHold },
    cli: { flag: 'max-hold', arg: 'N', help: ['cap on x and on parallel origin connections per stream (default {default})'] },
  },
  {
    key: 'holdParts',
    // Parts are a fraction of a segment: up to ten parts per segment of the largest hold.
    rule: { type: 'custom' },
    cli: {
      flag: 'hold-parts',
      arg: 'N|auto',
      help: [
        'low-latency streams (LL-HLS parts, LL-DASH chunks): hold the newest N',
        'parts instead of whole segments; the edge answers blocking reloads and',
        'delta updates itself (0 = LL through the edge, nothing held;',
        'auto = N per stream from the part model, rising only)',
      ],
      apply: (raw, input) => {
        input.holdParts = raw === 'auto' ? 'auto' : flagNumber('hold-parts', raw);
      },
    },
  },
  {
    key: 'backhaulRttMs',
    rule: { type: 'number', min: 0.01, max: 10_000 },
    cli: { flag: 'backhaul-rtt-ms', arg: 'MS', help: ['use this RTT instead of measuring it'] },
  },
  {
    key: 'lowerHoldAfterSegments',
    rule: { type: 'number', min: 0, max: 1000, default: HOLD_POLICY_DEFAULTS.lowerAfterSegments },
    cli: {
      flag: 'lower-hold-after',
      arg: 'S,N',
      help: [
        'auto: lower x only after the backhaul has supported x − 1 for S segment',
        `periods and N samples in a row (default ${HOLD_POLICY_DEFAULTS.lowerAfterSegments},${HOLD_POLICY_DEFAULTS.lowerAfterSamples})`,
      ],
      // One flag, two keys: the dwell in segment periods and in samples.
      apply: (raw, input) => {
        const [segments, samples, ...rest] = raw.split(',');
        if (rest.length > 0 || samples === undefined)
          throw new EdgeError('ERR_EDGE_CONFIG_INVALID', `--lower-hold-after wants SEGMENTS,SAMPLES (e.g. 4,3), got ${raw}`);
        input.lowerHoldAfterSegments = flagNumber('lower-hold-after', segments!);
        input.lowerHoldAfterSamples = flagNumber('lower-hold-after', samples);
      },
    },
  },
  { key: 'lowerHoldAfterSamples', rule: { type: 'integer', min: 1, max: 1000, default: HOLD_POLICY_DEFAULTS.lowerAfterSamples } },
  {
    key: 'holdFloor',
    rule: {
      type: 'enum',
      values: ['model', 'measured'],
      default: HOLD_POLICY_DEFAULTS.holdFloor,
      message: (got) => `'model' or 'measured', got ${JSON.stringify(got)}`,
    },
    cli: {
      flag: 'hold-floor',
      arg: 'F',
      help: [
        "auto: model (default; x never below the model's) | measured (x may go",
        'below it, to 1, once measured backhaul rates support it)',
      ],
    },
  },
  {
    key: 'segmentStart',
    // 'learn', not the core's 'slow-start': an edge that runs for days learns from its own fetches
    // (EdgeConfig.segmentStart says why); the service worker has no such history.
    rule: {
      type: 'enum',
      values: ['slow-start', 'warm', 'learn'],
      default: 'learn',
      message: (got) =>
        `'slow-start' (the paper's: the origin restarts idle connections in slow start), 'warm' (it keeps its window across idle) or 'learn' (from the edge's own fetches), got ${JSON.stringify(got)}`,
    },
    cli: {
      flag: 'segment-start',
      arg: 'S',
      help: [
        "auto's model of an origin fetch: learn (default: slow-start until the",
        "edge's fetches after idle show the window kept, five in a row)",
        "| slow-start (the paper's: the origin restarts idle connections from",
        'its initial window, CUBIC/Reno) | warm (it keeps its window across',
        'idle: BBR, or tcp_slow_start_after_idle=0); sets the x receivers join at',
      ],
    },
  },
  {
    key: 'defaultRanMbps',
    rule: { type: 'number', min: 0.01, max: 100_000, default: HOLD_POLICY_DEFAULTS.defaultRanMbps },
    cli: { flag: 'default-ran-mbps', arg: 'M', help: ['radio throughput when neither RNI nor CMCD tells (default {default})'] },
  },
  {
    key: 'rni.url',
    rule: { type: 'custom' },
    cli: { flag: 'rni-url', arg: 'URL', help: ['ETSI MEC 012 RNI API base (…/rni/v2): MeasRepUe subscription'] },
  },
  { key: 'rni.cacheMs', rule: { type: 'ms', min: 0, max: 600_000, default: 1000 } },
  { key: 'rni.timeoutMs', rule: { type: 'ms', min: 1, max: 60_000, default: 500 } },
  {
    key: 'ranFailAction',
    rule: {
      type: 'enum',
      values: RAN_FAIL_ACTIONS,
      default: 'redirect-307',
      message: () => `one of ${RAN_FAIL_ACTIONS.join(', ')} (a 301 would be cached by clients for good)`,
    },
    cli: { flag: 'ran-fail-action', arg: 'A', help: ['redirect-307 (default) | redirect-302 | pass-through'] },
  },
  {
    key: 'redirectSustainMs',
    rule: { type: 'ms', min: 0, max: MAX_REDIRECT_SUSTAIN_MS, default: HOLD_POLICY_DEFAULTS.redirectSustainMs },
    cli: {
      flag: 'redirect-sustain-ms',
      arg: 'MS',
      help: [
        "auto: act on eq. 3 (--ran-fail-action) only once a receiver's radio",
        'measurements cover MS and their mean and the latest are at or below',
        'the bitrate (default {default}; 0 = the last two measurements)',
      ],
    },
  },
  {
    key: 'fleet.pathway',
    rule: { type: 'custom' },
    cli: {
      flag: 'pathway',
      arg: 'ID',
      usage: '--pathway ID --public-url URL',
      help: ['this edge in a fleet: its pathway id and base URL as players', 'reach it (content steering; peers go in the config file)'],
    },
  },
  { key: 'fleet.publicUrl', rule: { type: 'custom' }, cli: { flag: 'public-url', arg: 'URL' } },
  {
    key: 'fleet.steeringUrl',
    rule: { type: 'custom' },
    cli: {
      flag: 'steering-url',
      arg: 'URL',
      help: [
        "the fleet's steering service (ethle-edge steer) for the manifests'",
        "steering URI, instead of this edge's own /_ethle/steering",
      ],
    },
  },
  { key: 'fleet.peers', rule: { type: 'custom' } },
  { key: 'fleet.originPathway', rule: { type: 'custom' } },
  { key: 'fleet.ttlSeconds', rule: { type: 'integer', min: 1, max: 3600, default: 5 } },
  {
    key: 'sessionTokens.secret',
    rule: { type: 'custom' },
    cli: {
      flag: 'session-secret-file',
      arg: 'F',
      help: ["the fleet's secret (one line) for portable session tokens"],
      apply: (file, input) => {
        let secret: string;
        try {
          secret = readFileSync(file, 'utf8').trim();
        } catch (e) {
          throw new EdgeError('ERR_EDGE_CONFIG_FILE', `cannot read ${file}: ${(e as Error).message}`);
        }
        input.sessionTokens = { ...input.sessionTokens, secret };
      },
    },
  },
  { key: 'sessionTokens.ttlSeconds', rule: { type: 'integer', min: 10, max: 86_400, default: 600 } },
  {
    key: 'egressCapacityMbps',
    rule: { type: 'number', min: 0.1, max: 10_000_000 },
    cli: { flag: 'egress-capacity-mbps', arg: 'M', help: ["this edge's egress for its load report (/_ethle/load)"] },
  },
  {
    key: 'collector.url',
    rule: { type: 'custom' },
    cli: {
      flag: 'collector',
      arg: 'URL',
      help: [
        "a QoE collector (ethle-collector) to report each receiver session's",
        'facts to (x held, group, redirect, cache hits; every 5 s), joined there',
        "with the player's beacons by the CMCD sid",
      ],
    },
  },
  {
    key: 'collector.label',
    rule: { type: 'custom' },
    cli: {
      flag: 'collector-label',
      arg: 'NAME',
      help: ["this edge's name in those reports (default its host:port): the name", "players give it in their beacons' meta.edge"],
      // Only with --collector: a label alone names nothing.
      apply: (label, input, values) => {
        if (values['collector'] !== undefined) input.collector = { ...input.collector!, label };
      },
    },
  },
  { key: 'collector.intervalMs', rule: { type: 'ms', min: 100, max: 3_600_000, default: 5000 } },
  {
    key: 'minReceiverMbps',
    rule: { type: 'number', min: 0.001, max: 100_000, default: 1 },
    cli: {
      flag: 'min-receiver-mbps',
      arg: 'M',
      help: [
        'the slowest receiver served (default {default}): a segment response waiting',
        'on its receiver longer than its length at this rate (at least 10 s)',
        'is cut and counted (ethle_receivers_cut_total)',
      ],
    },
  },
  {
    key: 'maxConnectionsPerClient',
    // At most maxConnections, and 0 = maxConnections; a parent's default is 0 (createEdgeConfig).
    rule: { type: 'integer', min: 0, max: 1_000_000, default: 256 },
    cli: {
      flag: 'max-connections-per-client',
      arg: 'N',
      help: [
        'receiver connections one client (IPv4 address, IPv6 /64)',
        'may hold open (default {default}; more are refused; 0 = no limit, for a',
        'proxy or NAT that every receiver comes through)',
      ],
    },
  },
  {
    key: 'tls.keyPath',
    rule: { type: 'custom' },
    cli: {
      flag: 'tls-key',
      arg: 'FILE',
      usage: '--tls-key FILE --tls-cert FILE',
      help: ['serve HTTPS'],
      // The flags replace a config file's pair; one without the other fails at start, naming it.
      apply: (_raw, input, values) => {
        input.tls = { keyPath: values['tls-key'] ?? '', certPath: values['tls-cert'] ?? '' };
      },
    },
  },
  {
    key: 'tls.certPath',
    rule: { type: 'custom' },
    cli: {
      flag: 'tls-cert',
      arg: 'FILE',
      apply: (_raw, input, values) => {
        input.tls = { keyPath: values['tls-key'] ?? '', certPath: values['tls-cert'] ?? '' };
      },
    },
  },
  {
    cli: {
      flag: 'workers',
      arg: 'N',
      help: [
        'N worker processes share the port (default 1); this process becomes',
        'a parent tier on loopback that owns the origin flows (one origin',
        'GET per segment for the box); SIGTERM drains every worker',
      ],
    },
  },
  {
    key: 'logLevel',
    // Quiet by default for programmatic use (tests, embedding); the CLI logs at info.
    rule: { type: 'enum', values: LOG_LEVELS, default: 'warn', message: () => `one of ${LOG_LEVELS.join(', ')}` },
    cli: { flag: 'log-level', arg: 'L', cliDefault: 'info', help: ['fatal|error|warn|info (default)|debug|trace|silent'] },
  },
  { key: 'origins', rule: { type: 'custom' } },
  { key: 'maxBlockedPerStream', rule: { type: 'integer', min: 1, max: 100_000, default: 1000 } },
  { key: 'initialWindow', rule: { type: 'integer', min: 1, max: 1000, default: HOLD_POLICY_DEFAULTS.initialWindow } },
  // Unset: half of Linux's tcp_rmem max where it tells (createEdgeConfig).
  { key: 'backhaulReceiveWindowBytes', rule: { type: 'integer', min: 1024, max: 1024 ** 3 } },
  { key: 'backhaulSendWindowBytes', rule: { type: 'integer', min: 1024, max: 1024 ** 3 } },
  { key: 'backhaulLossRate', rule: { type: 'number', min: 0, max: 0.5 } },
  { key: 'cache.maxBytes', rule: { type: 'integer', min: MIN_CACHE_BYTES, max: 1024 ** 4, default: 512 * 1024 * 1024 } },
  { key: 'cache.maxAgeMs', rule: { type: 'ms', min: 100, max: 86_400_000, default: 120_000 } },
  { key: 'streamIdleMs', rule: { type: 'ms', min: 100, max: 86_400_000, default: STREAM_DEFAULTS.idleMs } },
  { key: 'sessionIdleMs', rule: { type: 'ms', min: 100, max: 86_400_000, default: 120_000 } },
  { key: 'originHeadersTimeoutMs', rule: { type: 'ms', min: 10, max: 600_000, default: 10_000 } },
  { key: 'originProbeMs', rule: { type: 'ms', min: 0, max: 600_000, default: 2_000 } },
  { key: 'originBodyTimeoutMs', rule: { type: 'ms', min: 10, max: 600_000, default: 10_000 } },
  { key: 'manifestStaleMs', rule: { type: 'ms', min: 0, max: 3_600_000, default: 12_000 } },
  { key: 'maxUrlLength', rule: { type: 'integer', min: 64, max: 65_536, default: 2048 } },
  // Default: the core's (STREAM_DEFAULTS.streamQueryParams), as the service worker's.
  { key: 'streamQueryParams', rule: { type: 'custom' } },
  { key: 'maxStreams', rule: { type: 'integer', min: 1, max: 1_000_000, default: 1000 } },
  { key: 'maxSessions', rule: { type: 'integer', min: 1, max: 10_000_000, default: 100_000 } },
  // Unset: what the open-file limit leaves room for, at most 16,384 (createEdgeConfig).
  { key: 'maxConnections', rule: { type: 'integer', min: 1, max: 1_000_000, default: 16_384 } },
  // Unset: four fetches per connection a stream may hold, 4 × (maxHold + 1) (createEdgeConfig).
  { key: 'originMaxFetches', rule: { type: 'integer', min: 1, max: 10_000 } },
  { key: 'originMaxQueued', rule: { type: 'integer', min: 1, max: 1_000_000, default: 1024 } },
  { key: 'requestHeadersTimeoutMs', rule: { type: 'ms', min: 100, max: 600_000, default: 10_000 } },
  { key: 'keepAliveTimeoutMs', rule: { type: 'ms', min: 100, max: 3_600_000, default: 30_000 } },
  { key: 'drainMs', rule: { type: 'ms', min: 0, max: 3_600_000, default: 10_000 } },
  { key: 'sendDeadlineMinMs', rule: { type: 'ms', min: 100, max: 3_600_000, default: 10_000 } },
] satisfies readonly EdgeOption[];

type TableKey = Extract<(typeof TABLE)[number], { key: string }>['key'];
type TopLevel<K extends string> = K extends `${infer Head}.${string}` ? Head : K;
/** Compiles only when `Missing` is empty; the error names the keys that are missing. */
type NoneMissing<Missing extends never> = Missing;
/** Every key of EdgeConfigInput has an entry (an entry whose key is not in the types does not compile). */
export type EdgeOptionsCoverInput = NoneMissing<Exclude<EdgeOptionKey, TableKey>>;
/** Every field of EdgeConfig comes from an entry. */
export type EdgeOptionsCoverConfig = NoneMissing<Exclude<keyof EdgeConfig, TopLevel<TableKey>>>;

export const EDGE_OPTIONS: readonly EdgeOption[] = TABLE;
