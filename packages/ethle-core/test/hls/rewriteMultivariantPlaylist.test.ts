import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEdgeRouter, parseMultivariantPlaylist, rewriteMultivariantPlaylist, type HlsUriKind } from '@ethle/core';

// RFC 8216 §8.6/§8.7-style multivariant playlist with renditions, I-frame streams and session data.
const MV = `#EXTM3U
#EXT-X-VERSION:6
#EXT-X-INDEPENDENT-SEGMENTS
#EXT-X-SESSION-DATA:DATA-ID="com.example.title",URI="title.json"
#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://session",KEYFORMAT="com.apple.streamingkeydelivery"
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="en",NAME="English",DEFAULT=YES,AUTOSELECT=YES,URI="audio/en/index.m3u8"
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",LANGUAGE="de",NAME="Deutsch, Kommentar",URI="audio/de/index.m3u8"
#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC1",INSTREAM-ID="CC1"
#EXT-X-STREAM-INF:BANDWIDTH=2200000,AVERAGE-BANDWIDTH=2000000,CODECS="avc1.640028,mp4a.40.2",RESOLUTION=1280x720,AUDIO="aac",CLOSED-CAPTIONS="cc"
2M-2s/index.m3u8
# a comment between variants
#EXT-X-STREAM-INF:BANDWIDTH=16000000,CODECS="hvc1.2.4.L153.B0,mp4a.40.2",RESOLUTION=3840x2160,AUDIO="aac",CLOSED-CAPTIONS="cc"
http://origin:8081/live/15M-2s/index.m3u8
#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.640028",RESOLUTION=1280x720,URI="2M-2s/iframes.m3u8"
#EXT-X-UNKNOWN-VENDOR-TAG:FOO=1
`;

describe('multivariant playlists', () => {
  it('parses variants, renditions (quoted commas included), I-frame streams and session tags', () => {
    const p = parseMultivariantPlaylist(MV);
    expect(p.variants.map((v) => [v.uri, v.bandwidth])).toEqual([
      ['2M-2s/index.m3u8', 2_200_000],
      ['http://origin:8081/live/15M-2s/index.m3u8', 16_000_000],
    ]);
    expect(p.variants[0]?.attributes['CODECS']).toBe('avc1.640028,mp4a.40.2');
    expect(p.renditions.map((r) => [r.type, r.name, r.uri])).toEqual([
      ['AUDIO', 'English', 'audio/en/index.m3u8'],
      ['AUDIO', 'Deutsch, Kommentar', 'audio/de/index.m3u8'],
      ['CLOSED-CAPTIONS', 'CC1', undefined],
    ]);
    expect(p.iFrameStreams[0]).toMatchObject({ uri: '2M-2s/iframes.m3u8', bandwidth: 300_000 });
    expect(p.sessionData[0]?.['DATA-ID']).toBe('com.example.title');
    expect(p.sessionKeys).toHaveLength(1);
  });

  it('routes every variant, rendition, I-frame and session URI with its kind; every other byte is kept', () => {
    const seen: [string, HlsUriKind][] = [];
    const out = rewriteMultivariantPlaylist(MV, {
      route: (u, k) => {
        seen.push([u, k]);
        return `E/${u.replace('http://origin:8081/live/', '')}`;
      },
    });
    expect(seen).toEqual([
      ['title.json', 'session-data'],
      ['audio/en/index.m3u8', 'media'],
      ['audio/de/index.m3u8', 'media'],
      ['2M-2s/index.m3u8', 'variant'],
      ['http://origin:8081/live/15M-2s/index.m3u8', 'variant'],
      ['2M-2s/iframes.m3u8', 'iframe'],
    ]);
    const want = MV.replace('URI="title.json"', 'URI="E/title.json"')
      .replace('URI="audio/en/index.m3u8"', 'URI="E/audio/en/index.m3u8"')
      .replace('URI="audio/de/index.m3u8"', 'URI="E/audio/de/index.m3u8"')
      .replace('\n2M-2s/index.m3u8\n', '\nE/2M-2s/index.m3u8\n')
      .replace('\nhttp://origin:8081/live/15M-2s/index.m3u8\n', '\nE/15M-2s/index.m3u8\n')
      .replace('URI="2M-2s/iframes.m3u8"', 'URI="E/2M-2s/iframes.m3u8"');
    expect(out).toBe(want);
  });

  it('with createEdgeRouter the variants stay on the edge and carry the session token', () => {
    const route = createEdgeRouter({ manifestUrl: 'http://origin:8081/live/master.m3u8', sessionToken: 's1' });
    const out = rewriteMultivariantPlaylist(MV, { route });
    expect(out).toContain('\n15M-2s/index.m3u8?ethle_session=s1\n');
    expect(out).toContain('URI="2M-2s/iframes.m3u8?ethle_session=s1"');
    expect(out).toContain('URI="skd://session"');
  });

  it('rejects a variant without its URI line and media tags in a multivariant playlist', () => {
    expect(() => parseMultivariantPlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n')).toThrow(
      expect.objectContaining({ code: 'ERR_HLS_MALFORMED' }),
    );
    expect(() => parseMultivariantPlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n#EXTINF:2,\nb.ts\n')).toThrow(
      expect.objectContaining({ code: 'ERR_HLS_MALFORMED' }),
    );
    expect(() => rewriteMultivariantPlaylist('#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,NAME="x"\n', { route: (u) => u })).toThrow(
      expect.objectContaining({ code: 'ERR_HLS_MALFORMED' }),
    );
  });

  it('property: routes exactly the URIs of variants, renditions and I-frame streams; every other line is unchanged and in order', () => {
    type Entry = { kind: 'variant' | 'media' | 'iframe' | 'cc' | 'comment' | 'vendor'; n: number };
    const entry = fc.record({
      kind: fc.constantFrom('variant', 'media', 'iframe', 'cc', 'comment', 'vendor'),
      n: fc.nat(99),
    }) as fc.Arbitrary<Entry>;
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), fc.boolean(), (entries, crlf) => {
        const lines = ['#EXTM3U', '#EXT-X-INDEPENDENT-SEGMENTS'];
        const want = [...lines];
        entries.forEach(({ kind, n }, i) => {
          const uri = `r${i}_${n}/index.m3u8`;
          if (kind === 'variant') {
            lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${n * 1000 + 1},CODECS="avc1.64001f,mp4a.40.2"`, uri);
            want.push(lines[lines.length - 2]!, `E/${uri}`);
          } else if (kind === 'media' || kind === 'iframe') {
            const l =
              kind === 'media'
                ? `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="n, ${n}",URI="${uri}"`
                : `#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=${n + 1},URI="${uri}"`;
            lines.push(l);
            want.push(l.replace(`URI="${uri}"`, `URI="E/${uri}"`));
          } else {
            const l =
              kind === 'cc'
                ? `#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="CC${n}",INSTREAM-ID="CC1"`
                : kind === 'comment'
                  ? `# note ${n}`
                  : `#EXT-X-VENDOR-${n}:URI="x.m3u8"`;
            lines.push(l);
            want.push(l);
          }
        });
        const eol = crlf ? '\r\n' : '\n';
        const out = rewriteMultivariantPlaylist(lines.join(eol) + eol, { route: (u) => `E/${u}` });
        expect(out).toBe(want.join(eol) + eol);
        expect(parseMultivariantPlaylist(out).variants.every((v) => v.uri.startsWith('E/'))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
