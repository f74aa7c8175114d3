import { describe, expect, it } from 'vitest';
import { isManifestPath, isStorable, streamIdentity } from '@ethle/core';

describe('the per-stream rules both edges share', () => {
  it('a stream is its path plus the query parameters the operator names, as written', () => {
    const none = new Set<string>();
    expect(streamIdentity('/live/a.m3u8', '', none)).toBe('/live/a.m3u8');
    expect(streamIdentity('/live/a.m3u8', '_HLS_msn=3&CMCD=sid%3D%22x%22&t=1', none)).toBe('/live/a.m3u8');
    const ids = new Set(['channel', 'lang']);
    expect(streamIdentity('/live/a.m3u8', 'lang=de&_HLS_msn=3&channel=%41&x=1', ids)).toBe('/live/a.m3u8?lang=de&channel=%41');
    expect(streamIdentity('/live/a.m3u8', 'x=1', ids)).toBe('/live/a.m3u8');
  });

  it('a manifest is .m3u8 or .mpd in any case', () => {
    for (const p of ['/a/index.m3u8', '/a/INDEX.M3U8', '/a/manifest.mpd', '/a/Manifest.MPD']) expect(isManifestPath(p)).toBe(true);
    for (const p of ['/a/1.m4s', '/a/index.m3u8.bak', '/time', '/a/mpd']) expect(isManifestPath(p)).toBe(false);
  });

  it('kept: what the origin allows and whose end is framed', () => {
    const framed = { contentLength: '1000', transferEncoding: null };
    expect(isStorable({ cacheControl: 'public, max-age=60', ...framed })).toBe(true);
    expect(isStorable({ cacheControl: undefined, ...framed })).toBe(true);
    for (const cc of ['no-store', 'no-cache', 'private, max-age=60', 'max-age=0', 'Public, No-Cache'])
      expect(isStorable({ cacheControl: cc, ...framed })).toBe(false);
    expect(isStorable({ cacheControl: 'max-age=05', ...framed })).toBe(true);
    expect(isStorable({ cacheControl: null, contentLength: null, transferEncoding: 'chunked' })).toBe(true);
    // Delimited by the connection closing: whole and cut off look the same.
    expect(isStorable({ cacheControl: null, contentLength: null, transferEncoding: null })).toBe(false);
  });
});
