import { isIP } from 'node:net';
import { VirtualPlayerError, VirtualPlayerErrorCodes } from '../VirtualPlayerError.js';
import type { DashSettings, HlsSettings, VirtualPlayerConfig, VirtualPlayerConfigInput } from './VirtualPlayerConfig.js';

export const HLS_DEFAULTS: Readonly<HlsSettings> = {
  liveSyncDurationCount: 3,
  maxBufferLength: 30,
  maxMaxBufferLength: 600,
  maxBufferSize: 60 * 1000 * 1000,
  fragMaxTimeToFirstByteMs: 10_000,
};

export const DASH_DEFAULTS: Readonly<DashSettings> = {
  liveDelay: Number.NaN,
  liveDelayFragmentCount: Number.NaN,
  useSuggestedPresentationDelay: true,
  bufferTarget: 30,
  scheduleTimeoutMs: 500,
};

const bad = (message: string, details: Record<string, unknown> = {}) =>
  new VirtualPlayerError(VirtualPlayerErrorCodes.CONFIG, message, details);

function positive(name: string, v: number): void {
  if (!(typeof v === 'number' && v > 0 && Number.isFinite(v)))
    throw bad(`${name} must be a positive number, got ${String(v)}`, { name, value: v });
}

/** Defaults merged and every value checked once; throws ERR_VPLAYER_CONFIG naming the setting. */
export function createVirtualPlayerConfig(input: VirtualPlayerConfigInput): VirtualPlayerConfig {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw bad(`url is not an absolute URL: ${JSON.stringify(input.url)}`, { url: input.url });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(`url must be http(s), got ${url.protocol}`, { url: input.url });
  if (input.player !== 'hls' && input.player !== 'dash') throw bad(`player must be hls or dash, got ${JSON.stringify(input.player)}`);
  const hls = { ...HLS_DEFAULTS, ...input.hls };
  const dash = { ...DASH_DEFAULTS, ...input.dash };
  positive('hls.liveSyncDurationCount', hls.liveSyncDurationCount);
  positive('hls.maxBufferLength', hls.maxBufferLength);
  positive('hls.maxMaxBufferLength', hls.maxMaxBufferLength);
  positive('hls.maxBufferSize', hls.maxBufferSize);
  positive('hls.fragMaxTimeToFirstByteMs', hls.fragMaxTimeToFirstByteMs);
  if (!Number.isNaN(dash.liveDelay)) positive('dash.liveDelay', dash.liveDelay);
  if (!Number.isNaN(dash.liveDelayFragmentCount)) positive('dash.liveDelayFragmentCount', dash.liveDelayFragmentCount);
  positive('dash.bufferTarget', dash.bufferTarget);
  positive('dash.scheduleTimeoutMs', dash.scheduleTimeoutMs);
  const appendMs = input.appendMs ?? 25;
  if (!(typeof appendMs === 'number' && appendMs >= 0 && appendMs <= 1000))
    throw bad(`appendMs must be a number in [0, 1000] ms, got ${String(appendMs)}`, { name: 'appendMs', value: appendMs });
  const sampleIntervalMs = input.sampleIntervalMs ?? 1000;
  positive('sampleIntervalMs', sampleIntervalMs);
  const stallThresholdMs = input.stallThresholdMs ?? 1000;
  if (!(stallThresholdMs >= 250 && stallThresholdMs <= 10_000))
    throw bad(`stallThresholdMs must be a number in [250, 10000] (as the probe's), got ${stallThresholdMs}`);
  const maxEntries = input.maxEntries ?? 2000;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw bad(`maxEntries must be a positive integer, got ${maxEntries}`);
  const localAddress = input.localAddress;
  if (localAddress !== undefined && isIP(localAddress) === 0)
    throw bad(`localAddress must be an IP address, got ${JSON.stringify(localAddress)}`);
  return {
    url: url.href,
    player: input.player,
    hls,
    dash,
    appendMs,
    sampleIntervalMs,
    stallThresholdMs,
    maxEntries,
    ...(localAddress ? { localAddress } : {}),
  };
}
