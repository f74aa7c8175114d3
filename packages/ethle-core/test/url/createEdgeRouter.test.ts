import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEdgeRouter, crossOriginTarget, EthleError, resolveUrl, splitUrl } from '@ethle/core';

const MANIFEST = 'http://origin.example:8081/live/15M-2s/index.m3u8';

describe('createEdgeRouter', () => {
  it('keeps same-origin URIs relative to the manifest, so the player resolves them to the edge', () => {
    const r = createEdgeRouter({ manifestUrl: MANIFEST });
    expect(r('seg_100.m4s', 'segment')).toBe('seg_100.m4s');
    expect(r('http://origin.example:8081/live/15M-2s/seg_101.m4s', 'segment')).toBe('seg_101.m4s');
    expect(r('/live/15M-2s/init.mp4', 'init')).toBe('init.mp4');
    expect(r('../2M-2s/index.m3u8', 'rendition-report')).toBe('../2M-2s/index.m3u8');
    expect(r('/keys/k1.bin?v=2', 'key')).toBe('../../keys/k1.bin?v=2');
    expect(r('sub/dir/s.ts', 'segment')).toBe('sub/dir/s.ts');
  });

  it('every routed URI resolved against the edge manifest URL lands on the same path on the edge', () => {
    const r = createEdgeRouter({ manifestUrl: MANIFEST });
    const edgeManifest = 'http://edge.local:8080/live/15M-2s/index.m3u8';
    for (const uri of ['a.ts', '../x/y.ts', '/root.ts', '/..//double.ts', 'http://ORIGIN.example:8081/live/15M-2s/z.ts?q=1', './c:d.ts', '/live/15M-2s/']) {
      const origin = resolveUrl(uri, MANIFEST).replace('http://origin.example:8081', '').replace('http://ORIGIN.example:8081', '');
      const edge = resolveUrl(r(uri, 'segment'), edgeManifest).replace('http://edge.local:8080', '');
      expect(edge).toBe(origin);
    }
  });

  it('percent-encodes unencoded spaces (as browsers would) instead of failing the playlist', () => {
    const r = createEdgeRouter({ manifestUrl: MANIFEST });
    expect(r('my seg 1.ts', 'segment')).toBe('my%20seg%201.ts');
    expect(r('/live/a b/c.ts', 'segment')).toBe('../a%20b/c.ts');
  });

  it('treats the default port as the same origin', () => {
    const r = createEdgeRouter({ manifestUrl: 'https://o.example/live/a.m3u8' });
    expect(r('https://o.example:443/live/b.ts', 'segment')).toBe('b.ts');
  });

  it('adds the session token to every edge URI, but not to URIs left on another host', () => {
    const r = createEdgeRouter({ manifestUrl: MANIFEST, sessionToken: 'r 1', sessionParam: 'sid' });
    expect(r('seg.ts?x=1#t', 'segment')).toBe('seg.ts?x=1&sid=r%201#t');
    expect(r('https://cdn.example/seg.ts', 'segment')).toBe('https://cdn.example/seg.ts');
  });

  it("maps other hosts onto the edge with crossOrigin: 'proxy', and crossOriginTarget inverts it", () => {
    const r = createEdgeRouter({ manifestUrl: MANIFEST, crossOrigin: 'proxy', edgePathPrefix: '/e', sessionToken: 't' });
    const routed = r('https://cdn.example/v/seg.ts?a=1', 'segment');
    expect(routed).toBe('/e/_ethle/x/https/cdn.example/v/seg.ts?a=1&ethle_session=t');
    expect(crossOriginTarget('/_ethle/x/https/cdn.example/v/seg.ts?a=1')).toBe('https://cdn.example/v/seg.ts?a=1');
    expect(crossOriginTarget('/live/x.ts')).toBeUndefined();
  });

  it('leaves non-http schemes (skd:, data:) alone', () => {
    const r = createEdgeRouter({ manifestUrl: MANIFEST, sessionToken: 't' });
    expect(r('skd://key-id-1', 'key')).toBe('skd://key-id-1');
    expect(r('data:text/plain;base64,AAAA', 'key')).toBe('data:text/plain;base64,AAAA');
  });

  it('rejects a manifest URL that is not absolute http(s), with ERR_URL_INVALID', () => {
    for (const manifestUrl of ['/live/a.m3u8', 'ftp://h/a.m3u8', 'not a url']) {
      expect(() => createEdgeRouter({ manifestUrl })).toThrow(EthleError);
    }
  });

  it('property: for any same-origin reference, the routed URI resolved at the edge is the origin path plus the token', () => {
    const piece = fc.constantFrom('a', 'seg_1.ts', '.', '..', '/', '//', ':', '?', '#', 'x=1', '&', '%20', 'live', '15M-2s');
    const route = createEdgeRouter({ manifestUrl: MANIFEST, sessionToken: 'T' });
    const edgeManifest = 'http://edge.local:8080/live/15M-2s/index.m3u8';
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (parts) => {
        const uri = parts.join('');
        try {
          splitUrl(uri);
        } catch {
          return; // not a URI reference at all
        }
        const target = splitUrl(resolveUrl(uri, MANIFEST));
        if (target.authority !== 'origin.example:8081') return; // another host: not routed to the edge
        const routed = splitUrl(resolveUrl(route(uri, 'segment'), edgeManifest));
        expect(routed.authority).toBe('edge.local:8080');
        expect(routed.path).toBe(target.path);
        expect(routed.fragment).toBe(target.fragment);
        const params = (routed.query ?? '').split('&');
        expect(params.filter((q) => q === 'ethle_session=T')).toHaveLength(1);
        expect(params.filter((q) => q !== 'ethle_session=T' && !q.startsWith('ethle_session=')).join('&')).toBe(
          (target.query ?? '').split('&').filter((q) => q !== '').join('&'),
        );
      }),
      { numRuns: 500 },
    );
  });
});
