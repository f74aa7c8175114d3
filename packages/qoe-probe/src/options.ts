import { ErrorCodes, ProbeError } from './ProbeError.js';

export interface BeaconOptions {
  /** Collector URL; batches are POSTed there as JSON text (see README "Beacon format"). */
  url: string;
  /** Send a batch at least this often, ms (default 10000). */
  intervalMs?: number;
  /** …or as soon as this many events are queued (default 100). */
  maxEvents?: number;
  /**
   * Labels sent with every batch, so a collector can split its views by them (at most 32; names a
   * letter then letters, digits, `_ . -`): e.g. `{ stream: 'live-2M', scheme: 'hold-2', edge:
   * 'mec-1', player: 'hls.js' }`. Every batch carries them, so none depends on the first arriving.
   */
  meta?: Record<string, string | number | boolean>;
}

export interface ProbeOptions {
  /** Playback heartbeat period, ms (default 200; 50..1000). */
  heartbeatMs?: number;
  /** Sustained no-progress time that counts as a stall, ms (default 1000; 250..10000). */
  stallThresholdMs?: number;
  /** Live latency sampling period, ms (default 1000; ≥ 100). */
  latencyIntervalMs?: number;
  /**
   * Extra GETs of the manifest the probe may send (default 24, and one more per minute of the
   * session; 0: none). They are timed to bisect the server's Date second (clock sync below the
   * header's 1 s resolution) and, for HLS, the moment the playlist's edge advances. With 0 only
   * the player's own responses are used and the clock often stays ≈ ±0.5 s.
   */
  syncProbes?: number;
  /** Session id put in beacons (default: random). Use the same value as the players' CMCD `sid`. */
  sessionId?: string;
  /** Collector to send events to; none by default. */
  beacon?: BeaconOptions;
  /** Entries kept in each list of report() (stalls, segments, latency samples, …; default 2000). */
  maxEntries?: number;
}

export type ResolvedOptions = Required<Omit<ProbeOptions, 'beacon'>> & { beacon: Required<BeaconOptions> | null };

const META_KEY = /^[A-Za-z][\w.-]{0,63}$/;

function num(name: string, v: unknown, def: number, min: number, max: number): number {
  if (v === undefined) return def;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
    throw new ProbeError(ErrorCodes.BAD_OPTION, `${name} must be a number in [${min}, ${max}], got ${String(v)}`);
  return v;
}

/** Validates once, fills defaults; throws ProbeError(QOE_ERR_BAD_OPTION) naming the bad option. */
export function resolveOptions(o: ProbeOptions = {}): ResolvedOptions {
  const b = o.beacon;
  if (b !== undefined && (typeof b?.url !== 'string' || b.url === ''))
    throw new ProbeError(ErrorCodes.BAD_OPTION, 'beacon.url must be a non-empty string');
  const meta = b?.meta ?? {};
  if (
    typeof meta !== 'object' ||
    meta === null ||
    Object.keys(meta).length > 32 ||
    Object.entries(meta).some(([k, v]) => !META_KEY.test(k) || !['string', 'number', 'boolean'].includes(typeof v))
  )
    throw new ProbeError(
      ErrorCodes.BAD_OPTION,
      'beacon.meta must be ≤ 32 labels named [A-Za-z][\\w.-]* with string, number or boolean values',
    );
  if (o.sessionId !== undefined && typeof o.sessionId !== 'string')
    throw new ProbeError(ErrorCodes.BAD_OPTION, 'sessionId must be a string');
  return {
    heartbeatMs: num('heartbeatMs', o.heartbeatMs, 200, 50, 1000),
    stallThresholdMs: num('stallThresholdMs', o.stallThresholdMs, 1000, 250, 10000),
    latencyIntervalMs: num('latencyIntervalMs', o.latencyIntervalMs, 1000, 100, 3_600_000),
    maxEntries: num('maxEntries', o.maxEntries, 2000, 10, 1e6),
    syncProbes: num('syncProbes', o.syncProbes, 24, 0, 100),
    sessionId: o.sessionId ?? Math.random().toString(36).slice(2, 12),
    beacon: b
      ? {
          url: b.url,
          intervalMs: num('beacon.intervalMs', b.intervalMs, 10000, 100, 3_600_000),
          maxEvents: num('beacon.maxEvents', b.maxEvents, 100, 1, 10000),
          meta,
        }
      : null,
  };
}
