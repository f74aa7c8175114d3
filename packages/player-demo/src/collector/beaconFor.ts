import type { BeaconOptions } from '@ethle/qoe-probe';
import { playerName, type DemoConfig } from '../config.js';

/** How often the demo's probes send: the dashboard refreshes as often. */
export const BEACON_INTERVAL_MS = 5000;

/**
 * Where a page's probe sends its beacons (the collector `npm start` runs) and the labels the
 * fleet view splits by: the stream, the player, the scheme (e2e = direct), the edge it played
 * through ('direct' for none) and the page. None when no collector is configured.
 */
export function beaconFor(cfg: DemoConfig, labels: { scheme: string; edge: string; page: string }): BeaconOptions | undefined {
  if (!cfg.collectorUrl) return undefined;
  return {
    url: `${cfg.collectorUrl}/v1/beacon`,
    intervalMs: BEACON_INTERVAL_MS,
    meta: { stream: cfg.stream, player: playerName(cfg), ...labels },
  };
}

/** An edge's label in the fleet view: its host and port. */
export function edgeLabel(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
