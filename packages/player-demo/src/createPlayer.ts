import { attachProbe, type BeaconOptions, type QoeProbe } from '@ethle/qoe-probe';

export interface PlayerHandle {
  probe: QoeProbe;
  /**
   * The URL the manifest last came from, after redirects (an edge may answer 307 to the origin):
   * undefined until the first manifest loaded.
   */
  manifestUrl(): string | undefined;
  /** Calls `listener` with that URL on every manifest load. */
  onManifest(listener: (url: string) => void): void;
  destroy(): void;
}

/**
 * Plays `src` in `video` with real hls.js, dash.js or Shaka Player and attaches the QoE probe right
 * before the load request (the probe's startup clock starts at attach). CMCD is on, in query mode
 * so a cross-origin edge sees `mtp`/`bl`/`sid` without a CORS preflight, with the probe's session
 * id. The player library is imported on demand: a page downloads only the one it plays. With
 * `beacon`, the probe sends its events to a collector (beaconFor).
 */
export async function createPlayer(
  video: HTMLVideoElement,
  kind: 'hls' | 'dash' | 'shaka',
  src: string,
  beacon?: BeaconOptions,
): Promise<PlayerHandle> {
  const sessionId = crypto.randomUUID();
  const probeOptions = beacon ? { sessionId, beacon } : { sessionId };
  let finalUrl: string | undefined;
  const listeners: ((url: string) => void)[] = [];
  const loaded = (url: string | undefined | null) => {
    if (!url) return;
    finalUrl = url;
    for (const l of listeners) l(url);
  };
  const common = {
    manifestUrl: () => finalUrl,
    onManifest(listener: (url: string) => void) {
      listeners.push(listener);
      if (finalUrl) listener(finalUrl);
    },
  };
  if (kind === 'dash') {
    const { MediaPlayer } = await import('dashjs');
    const player = MediaPlayer().create();
    player.updateSettings({ debug: { logLevel: 1 }, streaming: { cmcd: { enabled: true, sid: sessionId, cid: src, mode: 'query' } } });
    const probe = attachProbe(player, probeOptions);
    // dash.js sets the manifest's url to the response URL (after redirects) and refreshes from it.
    player.on(MediaPlayer.events.MANIFEST_LOADED, (e: { data?: { url?: string } }) => loaded(e.data?.url));
    player.initialize(video, src, true);
    return {
      probe,
      ...common,
      destroy() {
        probe.destroy();
        player.destroy();
      },
    };
  }
  if (kind === 'shaka') {
    const { default: shaka } = await import('shaka-player');
    const player = new shaka.Player();
    player.configure({ cmcd: { enabled: true, sessionId, contentId: src, useHeaders: false } });
    const probe = attachProbe(player, probeOptions);
    // Shaka reports each manifest response's URL after redirects, and refreshes from it.
    player.addEventListener('downloadcompleted', (e: Event & { requestType?: number; response?: { uri?: string } }) => {
      if (e.requestType === shaka.net.NetworkingEngine.RequestType.MANIFEST) loaded(e.response?.uri);
    });
    await player.attach(video);
    player
      .load(src)
      .catch((e: { code?: number; message?: string }) => console.error(`Shaka could not load ${src}: ${e.code ?? ''} ${e.message ?? ''}`));
    return {
      probe,
      ...common,
      destroy() {
        probe.destroy();
        void player.destroy();
      },
    };
  }
  const { default: Hls } = await import('hls.js');
  const hls = new Hls({ cmcd: { sessionId, contentId: src, useHeaders: false } });
  const probe = attachProbe(hls, probeOptions);
  // hls.js reports the response URL (after redirects) and reloads the playlist from it.
  hls.on(Hls.Events.MANIFEST_LOADED, (_e, d) => loaded(d.url));
  hls.on(Hls.Events.LEVEL_LOADED, (_e, d) => loaded(d.details.url));
  hls.attachMedia(video);
  hls.loadSource(src);
  return {
    probe,
    ...common,
    destroy() {
      probe.destroy();
      hls.destroy();
    },
  };
}
