import { loadManifest, type ManifestView } from '@ethle/core';

/** Why a user's source cannot be run: a code to match on, and a message that says what to check. */
export class SourceError extends Error {
  constructor(
    readonly code: 'ERR_SOURCE_URL' | 'ERR_SOURCE_UNREACHABLE' | 'ERR_SOURCE_MANIFEST' | 'ERR_SOURCE_NOT_LIVE',
    message: string,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

/** What a run needs to know of a source before it starts: the player's buffer limit and the model's s_seg come from these. */
export interface SourceProbe {
  kind: 'hls' | 'dash';
  /** Nominal segment length (HLS target duration, DASH segment duration), s. */
  segmentSeconds: number;
  /** The newest segment's size of the largest track (the top rendition's video), bytes. */
  segmentBytes: number;
  /** The media playlist probed (a multivariant playlist's highest-bandwidth variant), path. */
  mediaPath: string;
}

/** `--source URL` as a run names it: `src-` and the manifest's file name (`.../stream.m3u8` → `src-stream`), or the name given. */
export function sourceName(url: string, name?: string): string {
  if (name !== undefined && name !== '') {
    if (!/^[\w.-]{1,40}$/.test(name))
      throw new SourceError('ERR_SOURCE_URL', `--source-name must be 1–40 letters, digits, '.', '_' or '-', got ${JSON.stringify(name)}`);
    return name;
  }
  const file = new URL(url).pathname.split('/').pop() ?? '';
  const stem = file
    .replace(/\.(m3u8|mpd)$/i, '')
    .replace(/[^\w.-]+/g, '_')
    .slice(0, 36);
  return `src-${stem || 'manifest'}`;
}

/** Checks `--source URL` before any testbed is built: an absolute http:// URL of an HLS playlist or DASH MPD. */
export function checkSourceUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SourceError(
      'ERR_SOURCE_URL',
      `--source wants an absolute http:// URL of a live HLS playlist or DASH MPD, got ${JSON.stringify(url)}`,
    );
  }
  if (u.protocol !== 'http:')
    throw new SourceError(
      'ERR_SOURCE_URL',
      `--source must be http:// (the relaying origin does not speak TLS to the source), got ${u.protocol}//`,
    );
  return u;
}

const TIMEOUT_MS = 10_000;

async function get(url: string, what: string): Promise<Response> {
  let r: Response;
  try {
    r = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    throw new SourceError(
      'ERR_SOURCE_UNREACHABLE',
      `${what} ${url}: ${(e as Error).message} — is the source running and reachable from this machine?`,
    );
  }
  if (!r.ok) throw new SourceError('ERR_SOURCE_UNREACHABLE', `${what} ${url}: HTTP ${r.status}`);
  return r;
}

function parse(text: string, url: string): ManifestView {
  try {
    return loadManifest(text, {
      manifestUrl: url,
      originBase: new URL(url).origin,
      routing: 'none',
      edgePathPrefix: '',
      nowMs: Date.now(),
      previousCarry: undefined,
    });
  } catch (e) {
    throw new SourceError('ERR_SOURCE_MANIFEST', `${url} is not a manifest the edge can read: ${(e as Error).message}`);
  }
}

/**
 * Reads a live source from this machine (the harness's namespace, which reaches it) before a run:
 * its manifest (a multivariant playlist's highest-bandwidth variant), its segment length, and the
 * size of the newest segment of each track, the largest of which sizes the players' forward buffer
 * as a Table I stream's does.
 */
export async function probeSource(url: string): Promise<SourceProbe> {
  checkSourceUrl(url);
  const text = await (await get(url, 'the source')).text();
  let view = parse(text, url);
  let mediaUrl = url;
  if (view.kind === 'hls-multivariant') {
    const top = [...(view.variantBitrates ?? [])].sort((a, b) => b.bps - a.bps)[0];
    if (!top) throw new SourceError('ERR_SOURCE_MANIFEST', `${url}: a multivariant playlist without variants on the source's host`);
    mediaUrl = new URL(top.path, new URL(url).origin).href;
    view = parse(await (await get(mediaUrl, 'its variant')).text(), mediaUrl);
  }
  const segments = view.segments(Date.now());
  if (segments.length === 0)
    throw new SourceError('ERR_SOURCE_NOT_LIVE', `${mediaUrl} lists no segment yet: start the source and give it a few segments`);
  const newest = new Map<string, (typeof segments)[number]>();
  for (const s of segments) if ((newest.get(s.track)?.id ?? -Infinity) < s.id) newest.set(s.track, s);
  let segmentBytes = 0;
  for (const s of newest.values()) {
    const body = await (await get(new URL(s.path, new URL(url).origin).href, 'its newest segment')).arrayBuffer();
    segmentBytes = Math.max(segmentBytes, body.byteLength);
  }
  return {
    kind: view.kind === 'dash' ? 'dash' : 'hls',
    segmentSeconds: view.segmentSeconds,
    segmentBytes,
    mediaPath: new URL(mediaUrl).pathname,
  };
}
