import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEdgeRouter, crossOriginTarget, EthleError, originKey, resolveUrl, splitUrl } from '@ethle/core';

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
    for (const uri of [
      'a.ts',
      '../x/y.ts',
      '/root.ts',
      '/..//double.ts',
      'http://ORIGIN.example:8081/live/15M-2s/z.ts?q=1',
      './c:d.ts',
      '/live/15M-2s/',
    ]) {
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

  it('compares origins after normalisation: case, default or zero-padded or empty port, userinfo, trailing dot (issue 15, item 7)', () => {
    const r = createEdgeRouter({ manifestUrl: 'http://origin.example/live/a.m3u8', sessionToken: 't' });
    for (const host of [
      'ORIGIN.Example',
      'origin.example:80',
      'origin.example:080',
      'origin.example:',
      'user:pw@origin.example',
      'origin.example.',
      'Origin.Example.:0080',
    ]) {
      expect(r(`HTTP://${host}/live/b.ts`, 'segment'), host).toBe('b.ts?ethle_session=t');
    }
    expect(r('http://origin.example:8080/live/b.ts', 'segment')).toBe('http://origin.example:8080/live/b.ts');
    expect(originKey(splitUrl('https://[::1]:443/x'))).toBe('https://[::1]');
    expect(originKey(splitUrl('https://[::1]:8443/x'))).toBe('https://[::1]:8443');
  });

  it('https, an IP address or another name reach the edge only when declared as origin aliases', () => {
    const plain = createEdgeRouter({ manifestUrl: 'http://origin.example/live/a.m3u8' });
    expect(plain('https://origin.example/live/b.ts', 'segment')).toBe('https://origin.example/live/b.ts');
    const r = createEdgeRouter({
      manifestUrl: 'http://origin.example/live/a.m3u8',
      originAliases: ['https://origin.example', 'http://10.0.0.5:8081/'],
    });
    expect(r('https://origin.example:443/live/b.ts', 'segment')).toBe('b.ts');
    expect(r('http://10.0.0.5:8081/live/c.ts', 'segment')).toBe('c.ts');
    expect(r('http://10.0.0.5/live/c.ts', 'segment')).toBe('http://10.0.0.5/live/c.ts');
    for (const bad of ['/live', 'ftp://x', 'no url', 42]) {
      expect(() => createEdgeRouter({ manifestUrl: MANIFEST, originAliases: [bad as string] })).toThrow(
        expect.objectContaining({ code: 'ERR_URL_INVALID' }),
      );
    }
  });

  it('says when it leaves a URI absolute because it is on another host — every time, memoized or not', () => {
    const seen: [string, string][] = [];
    const r = createEdgeRouter({ manifestUrl: MANIFEST, sessionToken: 't', onLeftAbsolute: (u, k) => seen.push([u, k]) });
    r('https://cdn.example/a.ts', 'segment');
    r('https://cdn.example/a.ts', 'segment');
    r('//cdn.example/k.bin', 'key');
    r('seg.ts', 'segment');
    r('http://origin.example:8081/live/15M-2s/x.ts', 'segment');
    r('skd://key-1', 'key');
    expect(seen).toEqual([
      ['https://cdn.example/a.ts', 'segment'],
      ['https://cdn.example/a.ts', 'segment'],
      ['//cdn.example/k.bin', 'key'],
    ]);
    const proxied: string[] = [];
    createEdgeRouter({ manifestUrl: MANIFEST, crossOrigin: 'proxy', onLeftAbsolute: (u) => proxied.push(u) })(
      'https://cdn.example/a.ts',
      'segment',
    );
    expect(proxied).toEqual([]);
  });

  it('property: any spelling of the manifest origin routes like the canonical one', () => {
    const spelling = fc.record({
      upper: fc.boolean(),
      port: fc.constantFrom('', ':8081', ':08081', ':0008081'),
      user: fc.constantFrom('', 'u@', 'u:p@'),
      dot: fc.boolean(),
      path: fc.constantFrom('/live/15M-2s/s.ts', '/x/y.ts?q=1', '/'),
    });
    const r = createEdgeRouter({ manifestUrl: MANIFEST, sessionToken: 'T' });
    fc.assert(
      fc.property(spelling, ({ upper, port, user, dot, path }) => {
        if (port === '') return; // 8081 is not the default port: without it, another origin
        const host = (upper ? 'ORIGIN.EXAMPLE' : 'origin.example') + (dot ? '.' : '');
        expect(r(`${upper ? 'HTTP' : 'http'}://${user}${host}${port}${path}`, 'segment')).toBe(
          r(`http://origin.example:8081${path}`, 'segment'),
        );
      }),
    );
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
          (target.query ?? '')
            .split('&')
            .filter((q) => q !== '')
            .join('&'),
        );
      }),
      { numRuns: 500 },
    );
  });
});
