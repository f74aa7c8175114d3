import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMp4Chunk, readTimescales, readTrexDefaults, readVideoTrackId, writeMp4Chunk, type Mp4Chunk } from '../mp4/Mp4Chunk.js';
import { splitFragment } from '../mp4/splitFragment.js';
import { parseTsChunk, writeTsChunk, type TsChunk } from '../ts/TsChunk.js';

/** The committed loop: 40 s in 2 s chunks (see scripts/encode-loop.sh). */
export const CHUNK_SECONDS = 2;
export const LOOP_CHUNKS = 20;
export const LOOP_SECONDS = CHUNK_SECONDS * LOOP_CHUNKS;

/** fMP4 flavours: muxed audio+video (HLS), video only and audio only (DASH adaptation sets). */
export type Mp4Variant = 'av' | 'v' | 'a';

/** One low-latency part (CMAF chunk) of a loop chunk, as `mp4Parts` returns it. */
export interface Mp4Part {
  bytes: Buffer;
  /** Media start and end, seconds from the start of its 2 s loop chunk. */
  startSeconds: number;
  endSeconds: number;
  /** Starts with a key frame (always true for audio). */
  independent: boolean;
}

interface PartTemplate {
  chunk: Mp4Chunk;
  startSeconds: number;
  endSeconds: number;
  independent: boolean;
}

interface Mp4Loop {
  init: Buffer;
  trex: Map<number, number>;
  chunks: Mp4Chunk[];
  /** Loop length per track, in that track's timescale. */
  loopDuration: Map<number, number>;
  timescale: Map<number, number>;
  /** RFC 6381 codecs of the tracks, e.g. avc1.4d401e, mp4a.40.2. */
  codecs: string[];
  videoTrackId: number | undefined;
}

export const DEFAULT_MEDIA_DIR = fileURLToPath(new URL('../../media/', import.meta.url));

/**
 * The committed low-resolution loop, parsed once, and builders for any segment of the endless live
 * stream made by repeating it with continuous timestamps. Segment bytes are built per request into
 * a fresh small buffer (tens of kB); the origin adds the padding that brings them to 4K sizes
 * (`FillerPadding` for fMP4, null packets for TS).
 */
export class LoopMedia {
  private readonly mp4: Record<Mp4Variant, Mp4Loop>;
  private readonly ts: TsChunk[];
  /** Payload packets per PID over one loop, and before each chunk (continuity counters). */
  private readonly tsLoopCount = new Map<number, number>();
  private readonly tsPrefix: Map<number, number>[] = [];
  /** Loop chunks cut into parts, per flavour and part length (built on first use). */
  private readonly partTemplates = new Map<string, PartTemplate[][]>();

  constructor(dir = DEFAULT_MEDIA_DIR) {
    const load = (v: Mp4Variant): Mp4Loop => {
      const init = readFileSync(join(dir, v, 'init.mp4'));
      const trex = readTrexDefaults(init);
      const chunks = Array.from({ length: LOOP_CHUNKS }, (_, i) =>
        parseMp4Chunk(readFileSync(join(dir, v, `${String(i).padStart(2, '0')}.m4s`)), trex),
      );
      const loopDuration = new Map<number, number>();
      for (const [track, first] of chunks[LOOP_CHUNKS - 1]!.firstDecodeTime) {
        loopDuration.set(track, first + chunks[LOOP_CHUNKS - 1]!.duration.get(track)!);
      }
      return {
        init,
        trex,
        chunks,
        loopDuration,
        timescale: readTimescales(init),
        codecs: readCodecs(init),
        videoTrackId: readVideoTrackId(init),
      };
    };
    this.mp4 = { av: load('av'), v: load('v'), a: load('a') };
    this.ts = Array.from({ length: LOOP_CHUNKS }, (_, i) =>
      parseTsChunk(readFileSync(join(dir, 'ts', `${String(i).padStart(2, '0')}.ts`))),
    );
    for (const c of this.ts) {
      this.tsPrefix.push(new Map(this.tsLoopCount));
      for (const [pid, n] of c.payloadCount) this.tsLoopCount.set(pid, (this.tsLoopCount.get(pid) ?? 0) + n);
    }
  }

  init(v: Mp4Variant): Buffer {
    return this.mp4[v].init;
  }

  codecs(v: Mp4Variant): string[] {
    return this.mp4[v].codecs;
  }

  /** The video track's id in a flavour (undefined for audio only). */
  videoTrackId(v: Mp4Variant): number | undefined {
    return this.mp4[v].videoTrackId;
  }

  timescale(v: Mp4Variant, trackId = 1): number {
    return this.mp4[v].timescale.get(trackId)!;
  }

  /** Loop length of a track in its timescale (the tests check it is exactly LOOP_SECONDS). */
  loopDuration(v: Mp4Variant, trackId = 1): number {
    return this.mp4[v].loopDuration.get(trackId)!;
  }

  /** Decode time (track timescale) at which global chunk `g` starts. */
  chunkDecodeTime(v: Mp4Variant, g: number, trackId = 1): number {
    const m = this.mp4[v];
    return Math.floor(g / LOOP_CHUNKS) * m.loopDuration.get(trackId)! + m.chunks[g % LOOP_CHUNKS]!.firstDecodeTime.get(trackId)!;
  }

  /** Size in bytes of `mp4Segment(v, first, count)`, without building it. */
  mp4SegmentSize(v: Mp4Variant, first: number, count: number): number {
    let size = 0;
    for (let g = first; g < first + count; g++) size += this.mp4[v].chunks[g % LOOP_CHUNKS]!.bytes.length;
    return size;
  }

  /** fMP4 media of global chunks [first, first + count), timestamps continued across loops. */
  mp4Segment(v: Mp4Variant, first: number, count: number): Buffer {
    const m = this.mp4[v];
    let size = 0;
    for (let g = first; g < first + count; g++) size += m.chunks[g % LOOP_CHUNKS]!.bytes.length;
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (let g = first; g < first + count; g++) {
      const loop = Math.floor(g / LOOP_CHUNKS);
      const chunk = m.chunks[g % LOOP_CHUNKS]!;
      // Fragment sequence numbers: 1-based, one per chunk fragment, across the endless stream.
      writeMp4Chunk(chunk, out, at, g * chunk.sequenceOffsets.length + 1, (track) => loop * m.loopDuration.get(track)!);
      at += chunk.bytes.length;
    }
    return out;
  }

  /**
   * Global chunk `g` as low-latency parts of about `partSeconds` (which divides CHUNK_SECONDS):
   * CMAF chunks cut at video frames (`splitFragment`), timestamps continued across loops, fragment
   * sequence numbers counted over parts. Concatenated they hold exactly the samples of
   * `mp4Segment(v, g, 1)`.
   */
  mp4Parts(v: Mp4Variant, g: number, partSeconds: number): Mp4Part[] {
    const m = this.mp4[v];
    const templates = this.partTemplatesOf(v, partSeconds)[g % LOOP_CHUNKS]!;
    const loop = Math.floor(g / LOOP_CHUNKS);
    return templates.map((t, i) => {
      const bytes = Buffer.allocUnsafe(t.chunk.bytes.length);
      writeMp4Chunk(t.chunk, bytes, 0, g * templates.length + i + 1, (track) => loop * m.loopDuration.get(track)!);
      return { bytes, startSeconds: t.startSeconds, endSeconds: t.endSeconds, independent: t.independent };
    });
  }

  /** Media start/end (s from the chunk start) and independence of each part of global chunk g, without building bytes. */
  partTimes(v: Mp4Variant, g: number, partSeconds: number): Omit<Mp4Part, 'bytes'>[] {
    return this.partTemplatesOf(v, partSeconds)[g % LOOP_CHUNKS]!.map(({ startSeconds, endSeconds, independent }) => ({
      startSeconds,
      endSeconds,
      independent,
    }));
  }

  private partTemplatesOf(v: Mp4Variant, partSeconds: number): PartTemplate[][] {
    const key = `${v}:${partSeconds}`;
    let t = this.partTemplates.get(key);
    if (t === undefined) {
      const m = this.mp4[v];
      const splitTrack = m.videoTrackId ?? [...m.timescale.keys()][0]!;
      t = m.chunks.map((c) =>
        splitFragment(c.bytes, m.timescale, m.trex, partSeconds, splitTrack).map((p) => ({
          chunk: parseMp4Chunk(p.bytes, m.trex),
          startSeconds: p.startSeconds,
          endSeconds: p.endSeconds,
          independent: p.independent,
        })),
      );
      this.partTemplates.set(key, t);
    }
    return t;
  }

  /** MPEG-TS media of global chunks [first, first + count). */
  tsSegment(first: number, count: number): Buffer {
    let size = 0;
    for (let g = first; g < first + count; g++) size += this.ts[g % LOOP_CHUNKS]!.bytes.length;
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    const loopTicks = BigInt(LOOP_SECONDS * 90_000);
    for (let g = first; g < first + count; g++) {
      const loop = Math.floor(g / LOOP_CHUNKS);
      const c = g % LOOP_CHUNKS;
      const counters = new Map<number, number>();
      for (const [pid, n] of this.tsLoopCount) counters.set(pid, (loop * n + (this.tsPrefix[c]!.get(pid) ?? 0)) & 0x0f);
      writeTsChunk(this.ts[c]!, out, at, BigInt(loop) * loopTicks, counters);
      at += this.ts[c]!.bytes.length;
    }
    return out;
  }
}

/** RFC 6381 codec strings from an init segment's sample entries (avcC profile/level; AAC LC). */
function readCodecs(init: Buffer): string[] {
  const out: string[] = [];
  const avcC = init.indexOf('avcC', 0, 'latin1');
  if (avcC > 0) out.push(`avc1.${init.subarray(avcC + 5, avcC + 8).toString('hex')}`);
  // The committed audio is AAC-LC (object type 2); see scripts/encode-loop.sh.
  if (init.indexOf('mp4a', 0, 'latin1') > 0) out.push('mp4a.40.2');
  return out;
}
