import { describe, expect, it } from 'vitest';
import { EthleError, removeDotSegments, resolveUrl, setQueryParam, splitUrl } from '@ethle/core';

// RFC 3986 §5.4: the normative examples, base "http://a/b/c/d;p?q".
const BASE = 'http://a/b/c/d;p?q';
const NORMAL: [string, string][] = [
  ['g:h', 'g:h'],
  ['g', 'http://a/b/c/g'],
  ['./g', 'http://a/b/c/g'],
  ['g/', 'http://a/b/c/g/'],
  ['/g', 'http://a/g'],
  ['//g', 'http://g'],
  ['?y', 'http://a/b/c/d;p?y'],
  ['g?y', 'http://a/b/c/g?y'],
  ['#s', 'http://a/b/c/d;p?q#s'],
  ['g#s', 'http://a/b/c/g#s'],
  ['g?y#s', 'http://a/b/c/g?y#s'],
  [';x', 'http://a/b/c/;x'],
  ['g;x', 'http://a/b/c/g;x'],
  ['g;x?y#s', 'http://a/b/c/g;x?y#s'],
  ['', 'http://a/b/c/d;p?q'],
  ['.', 'http://a/b/c/'],
  ['./', 'http://a/b/c/'],
  ['..', 'http://a/b/'],
  ['../', 'http://a/b/'],
  ['../g', 'http://a/b/g'],
  ['../..', 'http://a/'],
  ['../../', 'http://a/'],
  ['../../g', 'http://a/g'],
];
const ABNORMAL: [string, string][] = [
  ['../../../g', 'http://a/g'],
  ['../../../../g', 'http://a/g'],
  ['/./g', 'http://a/g'],
  ['/../g', 'http://a/g'],
  ['g.', 'http://a/b/c/g.'],
  ['.g', 'http://a/b/c/.g'],
  ['g..', 'http://a/b/c/g..'],
  ['..g', 'http://a/b/c/..g'],
  ['./../g', 'http://a/b/g'],
  ['./g/.', 'http://a/b/c/g/'],
  ['g/./h', 'http://a/b/c/g/h'],
  ['g/../h', 'http://a/b/c/h'],
  ['g;x=1/./y', 'http://a/b/c/g;x=1/y'],
  ['g;x=1/../y', 'http://a/b/c/y'],
  ['g?y/./x', 'http://a/b/c/g?y/./x'],
  ['g?y/../x', 'http://a/b/c/g?y/../x'],
  ['g#s/./x', 'http://a/b/c/g#s/./x'],
  ['g#s/../x', 'http://a/b/c/g#s/../x'],
  ['http:g', 'http:g'],
];

describe('resolveUrl (RFC 3986 §5.4)', () => {
  it.each(NORMAL)('normal example %s → %s', (ref, want) => expect(resolveUrl(ref, BASE)).toBe(want));
  it.each(ABNORMAL)('abnormal example %s → %s', (ref, want) => expect(resolveUrl(ref, BASE)).toBe(want));

  it('merges onto an authority with an empty path', () => {
    expect(resolveUrl('seg.ts', 'http://origin:8081')).toBe('http://origin:8081/seg.ts');
  });

  it('rejects a relative base and text that is no URI reference with ERR_URL_INVALID', () => {
    for (const [ref, base] of [
      ['g', '/relative/base'],
      ['a b.ts', BASE],
      ['1x:y', BASE],
      ['seg"1.ts', BASE],
    ] as const) {
      try {
        resolveUrl(ref, base);
        expect.unreachable(`${ref} against ${base}`);
      } catch (e) {
        expect(e).toBeInstanceOf(EthleError);
        expect((e as EthleError).code).toBe('ERR_URL_INVALID');
      }
    }
  });

  it('splitUrl tells an empty component from a missing one', () => {
    expect(splitUrl('http://h/p?')).toEqual({ scheme: 'http', authority: 'h', path: '/p', query: '', fragment: undefined });
    expect(splitUrl('seg.ts')).toEqual({ scheme: undefined, authority: undefined, path: 'seg.ts', query: undefined, fragment: undefined });
  });

  it('removeDotSegments follows §5.2.4 examples', () => {
    expect(removeDotSegments('/a/b/c/./../../g')).toBe('/a/g');
    expect(removeDotSegments('mid/content=5/../6')).toBe('mid/6');
    expect(removeDotSegments('/plain/path.ts')).toBe('/plain/path.ts');
  });
});

describe('setQueryParam', () => {
  it('appends, replaces an earlier value of the same name, encodes, and keeps the fragment last', () => {
    expect(setQueryParam('a.ts', 't', 'x y')).toBe('a.ts?t=x%20y');
    expect(setQueryParam('a.ts?k=1#f', 't', '2')).toBe('a.ts?k=1&t=2#f');
    expect(setQueryParam('a.ts?t=old&k=1', 't', 'new')).toBe('a.ts?k=1&t=new');
  });
});
