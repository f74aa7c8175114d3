import Hls from 'hls.js';
import { MediaPlayer } from 'dashjs';
import { attachProbe, type QoeProbe } from '@ethle/qoe-probe';

export interface PlayerHandle {
  probe: QoeProbe;
  destroy(): void;
}

/**
 * Plays `src` in `video` with real hls.js or dash.js and attaches the QoE probe right before the
 * load request (the probe's startup clock starts at attach). CMCD is on, in query mode so a
 * cross-origin edge sees `mtp`/`bl`/`sid` without a CORS preflight, with the probe's session id.
 */
export function createPlayer(video: HTMLVideoElement, kind: 'hls' | 'dash', src: string): PlayerHandle {
  const sessionId = crypto.randomUUID();
  if (kind === 'dash') {
    const player = MediaPlayer().create();
    player.updateSettings({ debug: { logLevel: 1 }, streaming: { cmcd: { enabled: true, sid: sessionId, cid: src, mode: 'query' } } });
    const probe = attachProbe(player, { sessionId });
    player.initialize(video, src, true);
    return {
      probe,
      destroy() {
        probe.destroy();
        player.destroy();
      },
    };
  }
  const hls = new Hls({ cmcd: { sessionId, contentId: src, useHeaders: false } });
  const probe = attachProbe(hls, { sessionId });
  hls.attachMedia(video);
  hls.loadSource(src);
  return {
    probe,
    destroy() {
      probe.destroy();
      hls.destroy();
    },
  };
}
