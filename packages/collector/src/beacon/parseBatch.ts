import { CollectorError } from '../errors/CollectorError.js';
import type { CollectorLimits } from '../config/CollectorConfig.js';
import type { LatencyRow, SegmentRow, SessionDimensions, StallRow, StoredEvent, ValidBatch } from './ValidBatch.js';

/**
 * An event time further than this from its batch's sentAt is refused: the probe flushes at least
 * every beacon interval (≤ 1 h), so such a time is a broken clock or a forged batch, and it would
 * put the session's timeline days away from its batches.
 */
const MAX_EVENT_SKEW_MS = 24 * 3600_000;
const MAX_ID = 200;
const MAX_LABEL = 256;
const MAX_URL = 4096;
const MAX_META_KEYS = 32;
const META_KEY = /^[A-Za-z][\w.-]{0,63}$/;
// Printable, no control characters: ids and labels end up in HTML and CSV.
const PRINTABLE = /^[^\u0000-\u001f\u007f]*$/;

type Obj = Record<string, unknown>;

const bad = (path: string, why: string) => new CollectorError('COLLECTOR_ERR_BAD_BATCH', `${path} ${why}`, { field: path });
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function num(o: Obj, key: string, path: string, opts: { min?: number; nullable?: boolean; optional?: boolean } = {}): number | null {
  const v = o[key];
  if (v === undefined && opts.optional) return null;
  if (v === null && opts.nullable) return null;
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw bad(`${path}.${key}`, `must be a finite number${opts.nullable ? ' or null' : ''}, got ${JSON.stringify(v) ?? 'undefined'}`);
  if (opts.min !== undefined && v < opts.min) throw bad(`${path}.${key}`, `must be ≥ ${opts.min}, got ${v}`);
  return v;
}
const must = (o: Obj, key: string, path: string, min?: number): number => num(o, key, path, min === undefined ? {} : { min })!;

function str(o: Obj, key: string, path: string, max: number, opts: { nullable?: boolean; optional?: boolean } = {}): string | null {
  const v = o[key];
  if (v === undefined && opts.optional) return null;
  if (v === null && opts.nullable) return null;
  if (typeof v !== 'string') throw bad(`${path}.${key}`, `must be a string, got ${JSON.stringify(v) ?? 'undefined'}`);
  if (v.length > max) throw bad(`${path}.${key}`, `is longer than ${max} characters`);
  if (!PRINTABLE.test(v)) throw bad(`${path}.${key}`, 'contains control characters');
  return v;
}

function time(o: Obj, key: string, path: string, sentMs: number): number {
  const t = must(o, key, path);
  if (Math.abs(t - sentMs) > MAX_EVENT_SKEW_MS)
    throw bad(`${path}.${key}`, `is ${((t - sentMs) / 3600_000).toFixed(1)} h from the batch's sentAt (at most 24 h)`);
  return t;
}

/** The stream a manifest URL plays: `/live/NAME/…` → NAME, else the manifest's directory name. */
export function streamOfUrl(url: string): string {
  try {
    const path = new URL(url).pathname;
    const live = /\/live\/([^/]+)\//.exec(path);
    if (live) return decodeURIComponent(live[1]!);
    const parts = path.split('/').filter(Boolean);
    return parts.length >= 2 ? decodeURIComponent(parts[parts.length - 2]!) : '';
  } catch {
    return '';
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/**
 * Validates one beacon body (packages/qoe-probe/README.md "Beacon format") and flattens it into
 * the rows a store writes. Throws CollectorError with a code and the first bad field's path; a
 * batch either passes whole or is refused whole. Unknown event types are kept (as raw events) so a
 * newer probe's batches are not refused; known ones are checked field by field.
 */
export function parseBatch(
  text: string,
  receivedMs: number,
  limits: Pick<CollectorLimits, 'maxEventsPerBatch' | 'maxBatchesPerSession' | 'maxEventBytes'>,
): ValidBatch {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CollectorError('COLLECTOR_ERR_BAD_BATCH', 'the body is not JSON', { field: '' });
  }
  if (!isObj(json)) throw bad('batch', 'must be a JSON object');
  if (json['v'] !== 1)
    throw new CollectorError(
      'COLLECTOR_ERR_VERSION',
      `v must be 1 (the format this collector reads), got ${JSON.stringify(json['v']) ?? 'undefined'}`,
      { field: 'v' },
    );
  const session = str(json, 'session', 'batch', MAX_ID)!;
  if (session === '') throw bad('batch.session', 'must not be empty');
  const seq = must(json, 'seq', 'batch', 0);
  if (!Number.isInteger(seq)) throw bad('batch.seq', `must be a whole number, got ${seq}`);
  if (seq >= limits.maxBatchesPerSession)
    throw new CollectorError(
      'COLLECTOR_ERR_SESSION_LIMIT',
      `session ${session} is over its limit of ${limits.maxBatchesPerSession} batches`,
      { session, seq },
    );
  const target = str(json, 'target', 'batch', 32)!;
  const sentMs = must(json, 'sentAt', 'batch', 0);
  const events = json['events'];
  if (!Array.isArray(events)) throw bad('batch.events', 'must be an array');
  if (events.length > limits.maxEventsPerBatch)
    throw new CollectorError(
      'COLLECTOR_ERR_TOO_MANY_EVENTS',
      `batch.events has ${events.length} events; at most ${limits.maxEventsPerBatch} per batch`,
      { field: 'batch.events' },
    );

  const meta: Record<string, string> = {};
  if (json['meta'] !== undefined) {
    const m = json['meta'];
    if (!isObj(m)) throw bad('batch.meta', 'must be an object of labels');
    const keys = Object.keys(m);
    if (keys.length > MAX_META_KEYS) throw bad('batch.meta', `has ${keys.length} labels; at most ${MAX_META_KEYS}`);
    for (const k of keys) {
      if (!META_KEY.test(k))
        throw bad(`batch.meta`, `label name ${JSON.stringify(k.slice(0, 70))} must be a letter then letters, digits, _ . - (≤ 64)`);
      const v = m[k];
      if (typeof v === 'number' || typeof v === 'boolean') meta[k] = String(v);
      else meta[k] = str(m, k, 'batch.meta', MAX_LABEL)!;
    }
  }

  const out: ValidBatch = {
    session,
    seq,
    target,
    sentMs,
    receivedMs,
    dims: { player: '', stream: '', scheme: '', edge: '' },
    metaJson: JSON.stringify(meta),
    events: [],
    segments: [],
    stalls: [],
    latency: [],
    startup: null,
    reportJson: null,
    firstAtMs: sentMs,
    watchMs: null,
  };
  let manifestUrl: string | undefined;
  events.forEach((e: unknown, i) => {
    const path = `batch.events[${i}]`;
    if (!isObj(e)) throw bad(path, 'must be an object');
    const type = str(e, 'type', path, 32)!;
    const d = e['data'];
    const dp = `${path}.data`;
    if (!isObj(d)) throw bad(dp, 'must be an object');
    const stored = JSON.stringify(d);
    if (stored.length > limits.maxEventBytes) throw bad(dp, `is ${stored.length} bytes of JSON; at most ${limits.maxEventBytes}`);
    let at = sentMs;
    switch (type) {
      case 'startup': {
        at = time(d, 'at', dp, sentMs);
        const startupMs = must(d, 'startupMs', dp, 0);
        out.startup = { startupMs, atMs: at };
        break;
      }
      case 'stallStart':
        at = time(d, 'start', dp, sentMs);
        must(d, 'detectedAt', dp);
        break;
      case 'stallEnd': {
        const start = time(d, 'start', dp, sentMs);
        at = time(d, 'end', dp, sentMs);
        const durationMs = must(d, 'durationMs', dp, 0);
        if (at < start) throw bad(`${dp}.end`, 'is before its start');
        const signals = d['signals'];
        if (signals !== undefined && (!Array.isArray(signals) || !signals.every((s) => typeof s === 'string')))
          throw bad(`${dp}.signals`, 'must be a list of strings');
        out.stalls.push({
          startMs: start,
          endMs: at,
          durationMs,
          interruptedBy: str(d, 'interruptedBy', dp, 32, { optional: true }),
        } satisfies StallRow);
        break;
      }
      case 'latency': {
        at = time(d, 'at', dp, sentMs);
        out.latency.push({
          atMs: at,
          trueLatencyS: num(d, 'trueLatency', dp, { nullable: true }),
          edgeDistanceS: num(d, 'edgeDistance', dp, { nullable: true }),
          holdS: num(d, 'holdSeconds', dp, { min: 0, optional: true }) ?? 0,
        } satisfies LatencyRow);
        break;
      }
      case 'segment': {
        const kind = str(d, 'kind', dp, 16)!;
        const url = str(d, 'url', dp, MAX_URL)!;
        const requestMs = time(d, 'requestStart', dp, sentMs);
        at = requestMs;
        const row: SegmentRow = {
          kind,
          url,
          track: str(d, 'track', dp, 32, { optional: true }) ?? '',
          requestMs,
          firstByteMs: time(d, 'firstByte', dp, sentMs),
          lastByteMs: time(d, 'lastByte', dp, sentMs),
          bytes: must(d, 'bytes', dp, 0),
          throughputBps: must(d, 'throughputBps', dp, 0),
          transferBps: must(d, 'transferBps', dp, 0),
          durationS: num(d, 'duration', dp, { min: 0, optional: true }) ?? 0,
          rendition: str(d, 'rendition', dp, 64, { optional: true }) ?? '',
          connection: str(d, 'connection', dp, 16, { optional: true }),
        };
        out.segments.push(row);
        if (kind === 'manifest') manifestUrl ??= url;
        break;
      }
      case 'switch':
      case 'error':
        at = time(d, 'at', dp, sentMs);
        break;
      case 'clock':
        must(d, 'offsetMs', dp);
        must(d, 'precisionMs', dp, 0);
        break;
      default:
        // A newer probe's event: kept as it came, timed by its `at` when it has a plausible one.
        if (typeof d['at'] === 'number' && Number.isFinite(d['at']) && Math.abs((d['at'] as number) - sentMs) <= MAX_EVENT_SKEW_MS)
          at = d['at'] as number;
    }
    out.events.push({ type, atMs: at, json: stored } satisfies StoredEvent);
    if (at < out.firstAtMs) out.firstAtMs = at;
  });

  if (json['report'] !== undefined) {
    if (!isObj(json['report'])) throw bad('batch.report', 'must be an object');
    out.reportJson = JSON.stringify(json['report']);
  }
  out.dims = {
    player: meta['player'] ?? target,
    stream: meta['stream'] ?? (manifestUrl ? streamOfUrl(manifestUrl) : ''),
    scheme: meta['scheme'] ?? '',
    edge: meta['edge'] ?? (manifestUrl ? hostOf(manifestUrl) : ''),
  } satisfies SessionDimensions;
  return out;
}
