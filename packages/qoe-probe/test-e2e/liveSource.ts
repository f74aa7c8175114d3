/**
 * The live stream the probe's browser tests play: the project's live origin, started on port 0.
 * PROBE_SCRATCH_ORIGIN=http://host:port (with /live/index.m3u8, /live/d/manifest.mpd and
 * /admin/pause?ms=N) points the tests at a hand-run origin instead, for debugging.
 */
export interface LiveSource {
  /** Origin base URL (scheme://host:port): an edge is pointed at it. */
  base: string;
  hls: string;
  dash: string;
  /** Hold every origin response for `ms` from now (the stream keeps being produced meanwhile). */
  pauseDelivery(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Null while the live origin package does not exist yet. */
export async function startLiveSource(stream: string): Promise<LiveSource | null> {
  const scratch = process.env.PROBE_SCRATCH_ORIGIN;
  if (scratch)
    return {
      base: scratch,
      hls: `${scratch}/live/index.m3u8`,
      dash: `${scratch}/live/d/manifest.mpd`,
      async pauseDelivery(ms) {
        await fetch(`${scratch}/admin/pause?ms=${ms}`);
      },
      async close() {},
    };
  const mod: any = await import('@ethle/live-origin');
  if (typeof mod.startOrigin !== 'function') return null;
  const origin = await mod.startOrigin({ port: 0 });
  const timers = new Set<ReturnType<typeof setTimeout>>();
  return {
    base: origin.url,
    hls: `${origin.url}/live/${stream}/index.m3u8`,
    dash: `${origin.url}/live/${stream}/manifest.mpd`,
    async pauseDelivery(ms) {
      origin.pause(stream);
      const t = setTimeout(() => {
        timers.delete(t);
        origin.resume(stream);
      }, ms);
      timers.add(t);
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      await origin.close();
    },
  };
}
