/**
 * What a virtual receiver does, as plain values (validated once by createVirtualPlayerConfig).
 * Each default is the real player's, named after the setting that holds it there (hls.js 1.7.4
 * `src/config.ts`, dash.js 5.2.1 `Settings.js`): the point is to fetch like they do.
 */
export interface HlsSettings {
  /** hls.js `liveSyncDurationCount` (latency-controller): start this many target durations behind the live edge. Default 3. */
  liveSyncDurationCount: number;
  /** hls.js `maxBufferLength` (stream-controller): load the next fragment while the forward buffer is below this, s. Default 30. */
  maxBufferLength: number;
  /** hls.js `maxMaxBufferLength`, s. Default 600. */
  maxMaxBufferLength: number;
  /** hls.js `maxBufferSize` (bytes): the target grows to 8 × this / bitrate when that is longer. Default 60 MB. */
  maxBufferSize: number;
  /** hls.js `fragLoadPolicy.default.maxTimeToFirstByteMs`: a fragment request without a first byte by then is retried. Default 10000. */
  fragMaxTimeToFirstByteMs: number;
}

export interface DashSettings {
  /** dash.js `streaming.delay.liveDelay`, s; NaN (default) = not set. */
  liveDelay: number;
  /** dash.js `streaming.delay.liveDelayFragmentCount`; NaN (default in 5.x) = not set. */
  liveDelayFragmentCount: number;
  /** dash.js `streaming.delay.useSuggestedPresentationDelay`. Default true. */
  useSuggestedPresentationDelay: boolean;
  /**
   * Forward buffer target, s: dash.js `streaming.buffer.bufferTimeAtTopQuality` (30) — a single
   * representation always plays at top quality (`_getGenericBufferTarget`).
   */
  bufferTarget: number;
  /** dash.js `streaming.scheduling.defaultTimeout`: the scheduler re-checks this often, ms. Default 500. */
  scheduleTimeoutMs: number;
}

export interface VirtualPlayerConfig {
  /** The live manifest: an HLS playlist (media or multivariant) or a DASH MPD. */
  url: string;
  player: 'hls' | 'dash';
  hls: HlsSettings;
  dash: DashSettings;
  /**
   * After a media segment's last byte, the player requests the next one only this much later, ms:
   * in Chromium hls.js parses the fragment and appends it to Media Source before its next tick
   * loads another (dash.js likewise after the append). Measured in the Chromium runs of the paper
   * matrix (hls.js 1.7.4, waits under 1 s): median 31 ms for 50M-2s (12 MB fMP4 segments), 21 ms
   * for 50M-4s (25 MB); p10 16–40 ms over the 50M cells. It matters beyond the lost link time: a
   * playlist reload that completes inside the gap makes its connection the most recently used,
   * so the next segment goes there (see the connection pool). Default 25; 0 requests at once.
   */
  appendMs: number;
  /** How often a latency sample is taken while playing, ms (the probe's cadence). Default 1000. */
  sampleIntervalMs: number;
  /** A stall counts once the playhead has not moved for this long, ms: the QoE probe's `stallThresholdMs` (default 1000, 250..10000). */
  stallThresholdMs: number;
  /** Keep at most this many entries per list in the report. Default 2000. */
  maxEntries: number;
  /** Local address the receiver's connections leave from (one user of a netlab cell); unset: the OS picks. */
  localAddress?: string;
}

export interface VirtualPlayerConfigInput {
  url: string;
  player: 'hls' | 'dash';
  hls?: Partial<HlsSettings>;
  dash?: Partial<DashSettings>;
  appendMs?: number;
  sampleIntervalMs?: number;
  stallThresholdMs?: number;
  maxEntries?: number;
  localAddress?: string;
}
