import { createVirtualPlayerConfig } from './config/createVirtualPlayerConfig.js';
import type { VirtualPlayerConfigInput } from './config/VirtualPlayerConfig.js';
import { createConnectionPool } from './net/createConnectionPool.js';
import { startDashPlayer } from './dash/startDashPlayer.js';
import type { VirtualPlayerEvent, VirtualPlayerListener } from './events/VirtualPlayerEvents.js';
import { startHlsPlayer } from './hls/startHlsPlayer.js';
import type { PlayoutPhase } from './playout/createPlayout.js';
import { createSession } from './report/createSession.js';
import type { VirtualReport } from './report/VirtualReport.js';

export interface VirtualPlayer {
  on<E extends VirtualPlayerEvent>(event: E, listener: VirtualPlayerListener<E>): () => void;
  report(): VirtualReport;
  /** Media buffered ahead of the playhead now (slowest track), s. */
  bufferAhead(): number;
  readonly phase: PlayoutPhase;
  /** Stops every timer and closes the player's connections. */
  close(): Promise<void>;
}

/**
 * Starts one virtual receiver with its own connection pool (as a browser tab has its own sockets).
 * Resolves once the manifest is loaded and the start position chosen; rejects with a
 * VirtualPlayerError (ERR_VPLAYER_CONFIG / _MANIFEST / _HTTP) when it cannot start.
 */
export async function startVirtualPlayer(input: VirtualPlayerConfigInput): Promise<VirtualPlayer> {
  const cfg = createVirtualPlayerConfig(input);
  // Browsers keep up to 6 connections per host and reuse the most recently used idle one;
  // hls.js/dash.js need at most 3 at once here, and talk to at most the edge and an origin.
  const pool = createConnectionPool({
    maxPerOrigin: 6,
    keepAliveTimeoutMs: 30_000,
    maxOrigins: 4,
    ...(cfg.localAddress ? { localAddress: cfg.localAddress } : {}),
  });
  const abort = new AbortController();
  const session = createSession(cfg.player, {
    sampleIntervalMs: cfg.sampleIntervalMs,
    stallThresholdMs: cfg.stallThresholdMs,
    maxEntries: cfg.maxEntries,
    appendMs: cfg.appendMs,
  });
  const close = async () => {
    if (!abort.signal.aborted) abort.abort();
    session.emitter.clear();
    await pool.destroy();
  };
  try {
    if (cfg.player === 'hls') await startHlsPlayer(cfg.url, cfg.hls, cfg.appendMs, pool, session, abort.signal);
    else await startDashPlayer(cfg.url, cfg.dash, cfg.appendMs, pool, session, abort.signal);
  } catch (e) {
    await close();
    throw e;
  }
  return {
    on: (event, listener) => session.emitter.on(event, listener),
    report: () => session.report(),
    bufferAhead: () => session.playout?.bufferAhead(session.now()) ?? 0,
    get phase() {
      return session.playout?.phase ?? 'loading';
    },
    close,
  };
}
