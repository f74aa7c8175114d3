import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEdgeRouter, EthleError, holdMediaPlaylist, parsePlaylist, rewriteMultivariantPlaylist } from '@ethle/core';
import { msnCount, renderWindow, streamModel } from './playlistModel.js';

const HEAD = '#EXTM3U\n#EXT-X-TARGETDURATION:2\n';

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (!(e instanceof EthleError)) throw new Error(`not an EthleError: ${String(e)}`, { cause: e });
    return e.code;
  }
  return 'no error';
}

describe('malformed playlists → typed errors', () => {
  it.each([
    ['empty text', ''],
    ['plain text', 'hello world'],
    ['an MPD', '<?xml version="1.0"?><MPD/>'],
    ['header not first', '\n#EXTM3U\n'],
    ['lowercase header', '#extm3u\n'],
  ])('%s is ERR_HLS_NOT_A_PLAYLIST', (_, text) => {
    expect(codeOf(() => holdMediaPlaylist(text, { hold: 1 }))).toBe('ERR_HLS_NOT_A_PLAYLIST');
    expect(codeOf(() => parsePlaylist(text))).toBe('ERR_HLS_NOT_A_PLAYLIST');
  });

  it('non-strings are ERR_HLS_NOT_A_PLAYLIST', () => {
    for (const v of [undefined, null, 42, {}, new Uint8Array(4)]) {
      expect(codeOf(() => holdMediaPlaylist(v as unknown as string, { hold: 1 }))).toBe('ERR_HLS_NOT_A_PLAYLIST');
    }
  });

  it.each([
    ['EXTINF without URI (truncated)', HEAD + '#EXTINF:2,\na.ts\n#EXTINF:2,\n', 5],
    ['truncated mid-line', HEAD + '#EXTINF:2,\na.ts\n#EXTINF:2', 5],
    ['URI without EXTINF', HEAD + 'a.ts\n', 3],
    ['two EXTINF for one URI', HEAD + '#EXTINF:2,\n#EXTINF:2,\na.ts\n', 4],
    ['no target duration', '#EXTM3U\n#EXTINF:2,\na.ts\n', 1],
    ['duration not a number', HEAD + '#EXTINF:two,\na.ts\n', 3],
    ['negative duration', HEAD + '#EXTINF:-2,\na.ts\n', 3],
    ['huge duration', HEAD + '#EXTINF:99999999,\na.ts\n', 3],
    ['exponent duration', HEAD + '#EXTINF:1e400,\na.ts\n', 3],
    ['negative media sequence', '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:-5\n', 3],
    ['absurd media sequence', '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:99999999999999999999\n', 3],
    ['zero target duration', '#EXTM3U\n#EXT-X-TARGETDURATION:0\n', 2],
    ['absurd target duration', '#EXTM3U\n#EXT-X-TARGETDURATION:100000000\n', 2],
    ['media sequence twice', '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:3\n#EXT-X-MEDIA-SEQUENCE:4\n', 4],
    ['target duration twice', '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-TARGETDURATION:4\n', 3],
    ['media sequence after segments', HEAD + '#EXTINF:2,\na.ts\n#EXT-X-MEDIA-SEQUENCE:3\n', 5],
    ['key without URI', HEAD + '#EXT-X-KEY:METHOD=AES-128\n', 3],
    ['key without METHOD', HEAD + '#EXT-X-KEY:URI="k"\n', 3],
    ['unterminated quote', HEAD + '#EXT-X-MAP:URI="init.mp4\n', 3],
    ['attribute without value', HEAD + '#EXT-X-MAP:URI\n', 3],
    ['duplicate attribute', HEAD + '#EXT-X-MAP:URI="a",URI="b"\n', 3],
    ['part without DURATION', HEAD + '#EXT-X-PART:URI="p.mp4"\n', 3],
    ['implicit byte range with nothing before', HEAD + '#EXTINF:2,\n#EXT-X-BYTERANGE:100\na.ts\n', 4],
    ['byte range not numeric', HEAD + '#EXTINF:2,\n#EXT-X-BYTERANGE:lots@0\na.ts\n', 4],
    ['bad program date time', HEAD + '#EXT-X-PROGRAM-DATE-TIME:yesterday\n#EXTINF:2,\na.ts\n', 3],
    ['bad playlist type', HEAD + '#EXT-X-PLAYLIST-TYPE:LIVE\n', 3],
    ['variant tag in a media playlist', HEAD + '#EXTINF:2,\na.ts\n#EXT-X-STREAM-INF:BANDWIDTH=1\n', 5],
    ['rendition report LAST-MSN negative', HEAD + '#EXT-X-RENDITION-REPORT:URI="r.m3u8",LAST-MSN=-1\n', 3],
  ])('%s is ERR_HLS_MALFORMED with the line number', (_, text, line) => {
    try {
      holdMediaPlaylist(text, { hold: 1 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EthleError);
      expect((e as EthleError).code).toBe('ERR_HLS_MALFORMED');
      expect((e as EthleError).details['line']).toBe(line);
    }
  });

  it('random text never throws anything but an EthleError', () => {
    const route = createEdgeRouter({ manifestUrl: 'http://o/live/a.m3u8', sessionToken: 't' });
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.boolean(), (s, header) => {
        const text = header ? '#EXTM3U\n' + s : s;
        for (const f of [
          () => holdMediaPlaylist(text, { hold: 2, route }),
          () => rewriteMultivariantPlaylist(text, { route }),
          () => parsePlaylist(text),
        ]) {
          try {
            f();
          } catch (e) {
            if (!(e instanceof EthleError)) throw e;
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  // Lines assembled from the tags a playlist has, with random values: nearer to real input than random text.
  const FRAGMENTS = [
    '#EXTINF:',
    '#EXT-X-TARGETDURATION:',
    '#EXT-X-MEDIA-SEQUENCE:',
    '#EXT-X-DISCONTINUITY-SEQUENCE:',
    '#EXT-X-BYTERANGE:',
    '#EXT-X-DISCONTINUITY',
    '#EXT-X-KEY:METHOD=AES-128,URI=',
    '#EXT-X-MAP:URI=',
    '#EXT-X-PROGRAM-DATE-TIME:',
    '#EXT-X-ENDLIST',
    '#EXT-X-PART:DURATION=',
    '#EXT-X-PRELOAD-HINT:TYPE=PART,URI=',
    '#EXT-X-RENDITION-REPORT:URI="r.m3u8",LAST-MSN=',
    '#EXT-X-SKIP:SKIPPED-SEGMENTS=',
    '#EXT-X-STREAM-INF:BANDWIDTH=',
    '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="n",URI=',
    '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,HOLD-BACK=',
    'seg.ts',
    'http://h/x.ts',
    '#comment',
    '',
  ];
  const VALUES = [
    '2',
    '2.5,',
    '-1',
    '1e9',
    '"a.ts"',
    '"x',
    '100@0',
    '100',
    '2026-11-22T10:00:00Z',
    'abc',
    '99999999999999999999',
    ',',
    '"',
    '=',
    '0',
  ];

  it('playlists assembled from real tags with random values never throw anything but an EthleError', () => {
    const route = createEdgeRouter({ manifestUrl: 'http://o/live/a.m3u8' });
    const line = fc.tuple(fc.constantFrom(...FRAGMENTS), fc.constantFrom('', ...VALUES)).map(([a, b]) => a + b);
    fc.assert(
      fc.property(fc.array(line, { maxLength: 25 }), fc.nat(4), (ls, hold) => {
        const text = '#EXTM3U\n' + ls.join('\n');
        try {
          const r = holdMediaPlaylist(text, { hold, route });
          expect(typeof r.text).toBe('string');
        } catch (e) {
          if (!(e instanceof EthleError)) throw e;
          expect(['ERR_HLS_MALFORMED', 'ERR_HLS_NOT_A_PLAYLIST', 'ERR_URL_INVALID']).toContain(e.code);
        }
        try {
          rewriteMultivariantPlaylist(text, { route });
        } catch (e) {
          if (!(e instanceof EthleError)) throw e;
        }
      }),
      { numRuns: 500 },
    );
  });

  it('valid playlists cut or damaged at a random place give a whole playlist or an EthleError, never anything else', () => {
    const route = createEdgeRouter({ manifestUrl: 'http://o/live/a.m3u8', sessionToken: 't' });
    fc.assert(
      fc.property(
        streamModel,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom('cut', 'flip', 'drop-line'),
        fc.nat(4),
        (m, at, how, hold) => {
          const text = renderWindow(m, m.base, m.base + msnCount(m) - 1).text;
          const k = Math.floor(at * text.length);
          let bad: string;
          if (how === 'cut') bad = text.slice(0, k);
          else if (how === 'flip') bad = text.slice(0, k) + String.fromCharCode((text.charCodeAt(k) || 0) ^ 0x20) + text.slice(k + 1);
          else {
            const ls = text.split('\n');
            ls.splice(Math.floor(at * ls.length), 1);
            bad = ls.join('\n');
          }
          try {
            const r = holdMediaPlaylist(bad, { hold, route });
            expect(r.text.startsWith('#EXTM3U')).toBe(true);
          } catch (e) {
            if (!(e instanceof EthleError)) throw e;
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
