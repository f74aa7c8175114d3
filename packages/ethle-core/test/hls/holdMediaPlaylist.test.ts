import { describe, expect, it } from 'vitest';
import { createEdgeRouter, createHlsHistory, holdMediaPlaylist, parseMediaPlaylist, recordHlsHistory, type HlsUriKind } from '@ethle/core';

const lines = (s: string) => s.split('\n');
/** A media playlist of `count` 2-s TS segments starting at `first`. */
function tsLive(first: number, count: number, td = 2): string {
  let s = `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:${td}\n#EXT-X-MEDIA-SEQUENCE:${first}\n`;
  for (let m = first; m < first + count; m++) s += `#EXTINF:2.000,\nseg${m}.ts\n`;
  return s;
}

describe('holdMediaPlaylist — plain live playlists', () => {
  it('holds the newest x TS segments with their EXTINF lines; the rest is unchanged', () => {
    const r = holdMediaPlaylist(tsLive(100, 6), { hold: 2 });
    expect(r.text).toBe(tsLive(100, 4));
    expect(r.appliedHold).toBe(2);
    expect(r.requestedHold).toBe(2);
    expect(r.held).toEqual([
      { msn: 104, uri: 'seg104.ts', duration: 2 },
      { msn: 105, uri: 'seg105.ts', duration: 2 },
    ]);
    expect(r.heldSeconds).toBe(4);
    expect(r.lastVisibleMsn).toBe(103);
    expect(r.playlistSeconds).toBe(8);
    expect(r.reason).toBeUndefined();
  });

  it('hold 0 without a router returns the text unchanged', () => {
    const t = tsLive(7, 5);
    const r = holdMediaPlaylist(t, { hold: 0 });
    expect(r.text).toBe(t);
    expect(r.held).toEqual([]);
    expect(r.lastVisibleMsn).toBe(11);
  });

  it('removes PDT, DISCONTINUITY, BYTERANGE and the cue tags that open them from held segments; keeps comments', () => {
    const origin = `#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PROGRAM-DATE-TIME:2026-11-22T10:00:00.000Z
#EXTINF:2,
#EXT-X-BYTERANGE:100@0
all.ts
#EXTINF:2,
#EXT-X-BYTERANGE:100
all.ts
#EXTINF:2,
#EXT-X-BYTERANGE:100
all.ts
# a comment
#EXT-X-CUE-OUT:DURATION=30
#EXT-X-DISCONTINUITY
#EXT-X-PROGRAM-DATE-TIME:2026-11-22T10:00:10.000Z
#EXTINF:2,
#EXT-X-BYTERANGE:120@0
ad.ts
#EXT-X-DATERANGE:ID="x",START-DATE="2026-11-22T10:00:10.000Z"
#EXTINF:2,
#EXT-X-BYTERANGE:120
ad.ts
`;
    const r = holdMediaPlaylist(origin, { hold: 2 });
    expect(r.text).toBe(`#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PROGRAM-DATE-TIME:2026-11-22T10:00:00.000Z
#EXTINF:2,
#EXT-X-BYTERANGE:100@0
all.ts
#EXTINF:2,
#EXT-X-BYTERANGE:100
all.ts
#EXTINF:2,
#EXT-X-BYTERANGE:100
all.ts
# a comment
`);
    expect(r.held.map((h) => h.byteRange)).toEqual([
      { length: 120, offset: 0 },
      { length: 120, offset: 120 },
    ]);
    // The result still parses, with the implicit offsets intact.
    expect(parseMediaPlaylist(r.text).segments.map((s) => s.byteRange?.offset)).toEqual([0, 100, 200]);
  });

  it('removes an EXT-X-MAP only the held segments use, and keeps the one visible segments use', () => {
    const origin = `#EXTM3U
#EXT-X-VERSION:7
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:50
#EXT-X-MAP:URI="init-a.mp4"
#EXTINF:2,
a50.m4s
#EXTINF:2,
a51.m4s
#EXTINF:2,
a52.m4s
#EXT-X-DISCONTINUITY
#EXT-X-MAP:URI="init-b.mp4"
#EXTINF:2,
b53.m4s
`;
    const r = holdMediaPlaylist(origin, { hold: 1 });
    expect(r.text).toBe(`#EXTM3U
#EXT-X-VERSION:7
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:50
#EXT-X-MAP:URI="init-a.mp4"
#EXTINF:2,
a50.m4s
#EXTINF:2,
a51.m4s
#EXTINF:2,
a52.m4s
`);
  });

  it('removes a key rotation only held segments use', () => {
    const origin = tsLive(0, 3) + '#EXT-X-KEY:METHOD=AES-128,URI="k2.bin"\n#EXTINF:2.000,\nseg3.ts\n';
    expect(holdMediaPlaylist(origin, { hold: 1 }).text).toBe(tsLive(0, 3));
  });

  it('ENDLIST and VOD playlists pass through unheld, routed, with reason "ended"', () => {
    const vod = tsLive(0, 6) + '#EXT-X-ENDLIST\n';
    const r = holdMediaPlaylist(vod, { hold: 2 });
    expect(r.text).toBe(vod);
    expect(r.appliedHold).toBe(0);
    expect(r.reason).toBe('ended');
    const typed = holdMediaPlaylist(tsLive(0, 6).replace('#EXT-X-VERSION:3', '#EXT-X-VERSION:3\n#EXT-X-PLAYLIST-TYPE:VOD'), { hold: 1 });
    expect(typed.appliedHold).toBe(0);
    expect(typed.reason).toBe('ended');
    const routed = holdMediaPlaylist(vod, { hold: 1, route: (u) => `edge/${u}` });
    expect(routed.text).toBe(vod.replace(/^seg/gm, 'edge/seg'));
  });

  it('EVENT playlists without ENDLIST are live and are held', () => {
    const ev = tsLive(0, 6).replace('#EXT-X-VERSION:3', '#EXT-X-VERSION:3\n#EXT-X-PLAYLIST-TYPE:EVENT');
    expect(holdMediaPlaylist(ev, { hold: 2 }).appliedHold).toBe(2);
  });
});

describe('holdMediaPlaylist — the 3 × target duration floor', () => {
  it('holds less when holding x would leave less than 3 target durations, and says so', () => {
    const r = holdMediaPlaylist(tsLive(10, 4), { hold: 2 }); // 8 s listed, 3 × 2 s = 6 s needed
    expect(r.appliedHold).toBe(1);
    expect(r.requestedHold).toBe(2);
    expect(r.reason).toBe('short-window');
    expect(r.text).toBe(tsLive(10, 3));
  });

  it('never hides every segment', () => {
    const r = holdMediaPlaylist(tsLive(10, 1, 1), { hold: 3 });
    expect(r.appliedHold).toBe(0);
    expect(r.reason).toBe('short-window');
  });

  it('extends the head from history, moving EXT-X-MEDIA-SEQUENCE back', () => {
    let history = createHlsHistory();
    history = recordHlsHistory(history, parseMediaPlaylist(tsLive(96, 4)));
    history = recordHlsHistory(history, parseMediaPlaylist(tsLive(98, 4)));
    const r = holdMediaPlaylist(tsLive(100, 4), { hold: 2, history });
    expect(r.appliedHold).toBe(2);
    expect(r.extendedFromHistory).toBe(1);
    expect(r.reason).toBeUndefined();
    expect(r.text).toBe(tsLive(99, 3));
    expect(r.playlistSeconds).toBe(6);
  });

  it('falls back to holding less when the history does not reach back far enough', () => {
    const history = recordHlsHistory(createHlsHistory(), parseMediaPlaylist(tsLive(100, 4)));
    const r = holdMediaPlaylist(tsLive(100, 4), { hold: 3, history });
    expect(r.appliedHold).toBe(1);
    expect(r.extendedFromHistory).toBe(0);
    expect(r.reason).toBe('short-window');
  });

  it('re-declares keys, maps and discontinuities for history segments and sets DISCONTINUITY-SEQUENCE', () => {
    const older = `#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:20
#EXT-X-DISCONTINUITY-SEQUENCE:3
#EXT-X-KEY:METHOD=AES-128,URI="k1.bin"
#EXT-X-MAP:URI="init-a.mp4"
#EXT-X-PROGRAM-DATE-TIME:2026-11-22T10:00:00.000Z
#EXTINF:2,
a20.m4s
#EXT-X-DISCONTINUITY
#EXT-X-MAP:URI="init-b.mp4"
#EXTINF:2,
#EXT-X-BYTERANGE:500@0
b21.m4s
#EXTINF:2,
#EXT-X-BYTERANGE:500
b22.m4s
`;
    const now = `#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:23
#EXT-X-DISCONTINUITY-SEQUENCE:4
#EXT-X-MAP:URI="init-b.mp4"
#EXTINF:2,
b23.m4s
#EXTINF:2,
b24.m4s
`;
    const history = recordHlsHistory(createHlsHistory(), parseMediaPlaylist(older));
    const r = holdMediaPlaylist(now, { hold: 1, history });
    expect(r.extendedFromHistory).toBe(2);
    expect(r.text).toBe(`#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:21
#EXT-X-DISCONTINUITY-SEQUENCE:4
#EXT-X-KEY:METHOD=AES-128,URI="k1.bin"
#EXT-X-MAP:URI="init-b.mp4"
#EXTINF:2,
#EXT-X-BYTERANGE:500@0
b21.m4s
#EXTINF:2,
#EXT-X-BYTERANGE:500@500
b22.m4s
#EXT-X-KEY:METHOD=NONE
#EXT-X-MAP:URI="init-b.mp4"
#EXTINF:2,
b23.m4s
`);
    const p = parseMediaPlaylist(r.text);
    expect(p.segments.map((s) => [s.msn, s.discontinuitySequence, s.keyLines.length])).toEqual([
      [21, 4, 1],
      [22, 4, 1],
      [23, 4, 0],
    ]);
  });

  it('extends across a discontinuity the origin already dropped, inserting the DISCONTINUITY tag', () => {
    const older = `#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:5
#EXTINF:2,
x5.ts
#EXT-X-DISCONTINUITY
#EXTINF:2,
y6.ts
`;
    const now = `#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:6
#EXT-X-DISCONTINUITY-SEQUENCE:1
#EXTINF:2,
y6.ts
#EXTINF:2,
y7.ts
#EXTINF:2,
y8.ts
`;
    const history = recordHlsHistory(createHlsHistory(), parseMediaPlaylist(older));
    const r = holdMediaPlaylist(now, { hold: 1, history });
    expect(r.text).toBe(`#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:5
#EXT-X-DISCONTINUITY-SEQUENCE:0
#EXTINF:2,
x5.ts
#EXT-X-DISCONTINUITY
#EXTINF:2,
y6.ts
#EXTINF:2,
y7.ts
`);
  });

  it('drops history when the stream restarts (same msn, other URI) and then does not extend from it', () => {
    let history = recordHlsHistory(createHlsHistory(), parseMediaPlaylist(tsLive(0, 4)));
    const restarted = tsLive(2, 4).replace(/seg(\d+)/g, 'new$1');
    history = recordHlsHistory(history, parseMediaPlaylist(restarted));
    expect(history.segments.map((s) => s.uri)).toEqual(['new2.ts', 'new3.ts', 'new4.ts', 'new5.ts']);
    const r = holdMediaPlaylist(restarted, { hold: 3, history });
    expect(r.extendedFromHistory).toBe(0);
    expect(r.appliedHold).toBe(1);
  });

  it('keeps the history bounded', () => {
    let h = createHlsHistory({ maxSegments: 5 });
    for (let first = 0; first < 30; first += 2) h = recordHlsHistory(h, parseMediaPlaylist(tsLive(first, 4)));
    expect(h.segments.map((s) => s.msn)).toEqual([27, 28, 29, 30, 31]);
  });
});

const LL = `#EXTM3U
#EXT-X-TARGETDURATION:4
#EXT-X-VERSION:9
#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,CAN-SKIP-UNTIL=24.0
#EXT-X-PART-INF:PART-TARGET=1.0
#EXT-X-MEDIA-SEQUENCE:266
#EXT-X-MAP:URI="init.mp4"
#EXTINF:4.0,
s266.mp4
#EXTINF:4.0,
s267.mp4
#EXT-X-PART:DURATION=1.0,URI="p268.0.mp4",INDEPENDENT=YES
#EXT-X-PART:DURATION=1.0,URI="p268.1.mp4"
#EXT-X-PART:DURATION=1.0,URI="p268.2.mp4"
#EXT-X-PART:DURATION=1.0,URI="p268.3.mp4"
#EXTINF:4.0,
s268.mp4
#EXT-X-PART:DURATION=1.0,URI="p269.0.mp4",INDEPENDENT=YES
#EXT-X-PART:DURATION=1.0,URI="p269.1.mp4"
#EXT-X-PART:DURATION=1.0,URI="p269.2.mp4"
#EXT-X-PART:DURATION=1.0,URI="p269.3.mp4"
#EXTINF:4.0,
s269.mp4
#EXT-X-PART:DURATION=1.0,URI="p270.0.mp4",INDEPENDENT=YES
#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p270.1.mp4"
#EXT-X-RENDITION-REPORT:URI="../1M/index.m3u8",LAST-MSN=270,LAST-PART=0
#EXT-X-RENDITION-REPORT:URI="../4M/index.m3u8",LAST-MSN=270
`;

describe('holdMediaPlaylist — LL-HLS', () => {
  it('holds the in-progress segment (parts + preload hint) and x complete segments with their parts; reports drop by the same msns', () => {
    const r = holdMediaPlaylist(LL, { hold: 1, lowLatency: 'keep' });
    expect(r.text).toBe(`#EXTM3U
#EXT-X-TARGETDURATION:4
#EXT-X-VERSION:9
#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.0,CAN-SKIP-UNTIL=24.0
#EXT-X-PART-INF:PART-TARGET=1.0
#EXT-X-MEDIA-SEQUENCE:266
#EXT-X-MAP:URI="init.mp4"
#EXTINF:4.0,
s266.mp4
#EXTINF:4.0,
s267.mp4
#EXT-X-PART:DURATION=1.0,URI="p268.0.mp4",INDEPENDENT=YES
#EXT-X-PART:DURATION=1.0,URI="p268.1.mp4"
#EXT-X-PART:DURATION=1.0,URI="p268.2.mp4"
#EXT-X-PART:DURATION=1.0,URI="p268.3.mp4"
#EXTINF:4.0,
s268.mp4
#EXT-X-RENDITION-REPORT:URI="../1M/index.m3u8",LAST-MSN=268,LAST-PART=3
#EXT-X-RENDITION-REPORT:URI="../4M/index.m3u8",LAST-MSN=268
`);
    expect(r.held).toEqual([{ msn: 269, uri: 's269.mp4', duration: 4 }]);
    expect(r.heldParts).toBe(1);
    expect(r.heldSeconds).toBe(5);
    expect(r.lastVisibleMsn).toBe(268);
  });

  it('drops LAST-PART from reports when the visible tail lists no parts', () => {
    const longer = LL.replace(
      '#EXT-X-MEDIA-SEQUENCE:266\n#EXT-X-MAP:URI="init.mp4"\n',
      '#EXT-X-MEDIA-SEQUENCE:264\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:4.0,\ns264.mp4\n#EXTINF:4.0,\ns265.mp4\n',
    );
    const r = holdMediaPlaylist(longer, { hold: 2, lowLatency: 'keep' });
    expect(r.appliedHold).toBe(2);
    expect(lines(r.text).filter((l) => l.startsWith('#EXT-X-RENDITION-REPORT'))).toEqual([
      '#EXT-X-RENDITION-REPORT:URI="../1M/index.m3u8",LAST-MSN=267',
      '#EXT-X-RENDITION-REPORT:URI="../4M/index.m3u8",LAST-MSN=267',
    ]);
    expect(lines(r.text).some((l) => l.startsWith('#EXT-X-PART:'))).toBe(false);
  });

  it('hold 0 keeps parts, preload hints and reports', () => {
    expect(holdMediaPlaylist(LL, { hold: 0 }).text).toBe(LL);
  });
});

describe('holdMediaPlaylist — routing', () => {
  it('routes segment, init, key, part, preload-hint and rendition-report URIs, not skd:/data: keys', () => {
    const origin = `#EXTM3U
#EXT-X-TARGETDURATION:4
#EXT-X-MEDIA-SEQUENCE:1
#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://kid",KEYFORMAT="com.apple.streamingkeydelivery"
#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,AAA",KEYFORMAT="urn:x"
#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x1
#EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
#EXTINF:4.0,
s1.mp4
#EXT-X-PART:DURATION=1.0,URI="p2.0.mp4"
#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p2.1.mp4"
#EXT-X-RENDITION-REPORT:URI="../lo/index.m3u8",LAST-MSN=2,LAST-PART=0
`;
    const seen: [string, HlsUriKind][] = [];
    const r = holdMediaPlaylist(origin, {
      hold: 0,
      route: (u, k) => {
        seen.push([u, k]);
        return `R(${u})`;
      },
    });
    expect(seen).toEqual([
      ['key.bin', 'key'],
      ['init.mp4', 'init'],
      ['s1.mp4', 'segment'],
      ['p2.0.mp4', 'part'],
      ['p2.1.mp4', 'preload-hint'],
      ['../lo/index.m3u8', 'rendition-report'],
    ]);
    expect(r.text).toContain('#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://kid",KEYFORMAT="com.apple.streamingkeydelivery"');
    expect(r.text).toContain('#EXT-X-KEY:METHOD=AES-128,URI="R(key.bin)",IV=0x1');
    expect(r.text).toContain('#EXT-X-MAP:URI="R(init.mp4)",BYTERANGE="720@0"');
    expect(r.text).toContain('\nR(s1.mp4)\n');
    expect(r.text).toContain('#EXT-X-RENDITION-REPORT:URI="R(../lo/index.m3u8)",LAST-MSN=2,LAST-PART=0');
  });

  it('with createEdgeRouter, absolute origin URIs become relative and carry the session token', () => {
    const origin = tsLive(0, 4).replace('seg3.ts', 'http://origin:8081/live/a/seg3.ts');
    const route = createEdgeRouter({ manifestUrl: 'http://origin:8081/live/a/index.m3u8', sessionToken: 'tok' });
    const r = holdMediaPlaylist(origin, { hold: 1, route });
    expect(lines(r.text).filter((l) => !l.startsWith('#') && l !== '')).toEqual([
      'seg0.ts?ethle_session=tok',
      'seg1.ts?ethle_session=tok',
      'seg2.ts?ethle_session=tok',
    ]);
    expect(r.held[0]?.uri).toBe('http://origin:8081/live/a/seg3.ts');
  });

  it('turns a router failure or a router answer that would break the playlist into ERR_URL_INVALID', () => {
    const t = tsLive(0, 4);
    for (const route of [
      () => {
        throw new TypeError('boom');
      },
      () => 'a"b',
      () => 'a\nb',
      () => '',
      () => 42 as unknown as string,
    ]) {
      expect(() => holdMediaPlaylist(t, { hold: 1, route })).toThrow(expect.objectContaining({ code: 'ERR_URL_INVALID' }));
    }
  });

  it('rejects bad options with ERR_HLS_INVALID_OPTIONS', () => {
    for (const hold of [-1, 1.5, Number.NaN, 1e9, '2' as unknown as number]) {
      expect(() => holdMediaPlaylist(tsLive(0, 4), { hold })).toThrow(expect.objectContaining({ code: 'ERR_HLS_INVALID_OPTIONS' }));
    }
  });
});

describe('holdMediaPlaylist — more cases', () => {
  it('holds in a delta update (EXT-X-SKIP), counting skipped segments toward the window, never extending it', () => {
    const delta = `#EXTM3U
#EXT-X-TARGETDURATION:4
#EXT-X-VERSION:9
#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24
#EXT-X-MEDIA-SEQUENCE:100
#EXT-X-SKIP:SKIPPED-SEGMENTS=6
#EXTINF:4.0,
s106.mp4
#EXTINF:4.0,
s107.mp4
`;
    const history = recordHlsHistory(createHlsHistory(), tsLive(90, 10));
    const r = holdMediaPlaylist(delta, { hold: 1, history, lowLatency: 'keep' });
    expect(r.appliedHold).toBe(1);
    expect(r.extendedFromHistory).toBe(0);
    expect(r.text).toBe(delta.replace('#EXTINF:4.0,\ns107.mp4\n', ''));
    expect(r.lastVisibleMsn).toBe(106);
  });

  it('does not extend TS history in front of an fMP4 window (no way to say "no EXT-X-MAP")', () => {
    const fmp4 = `#EXTM3U
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:4
#EXT-X-DISCONTINUITY-SEQUENCE:1
#EXT-X-MAP:URI="init.mp4"
#EXTINF:2,
s4.m4s
#EXTINF:2,
s5.m4s
`;
    const withMapFirst = recordHlsHistory(
      createHlsHistory(),
      fmp4.replace('MEDIA-SEQUENCE:4', 'MEDIA-SEQUENCE:2').replace(/s(\d)\.m4s/g, (_, d) => `s${Number(d) - 2}.m4s`),
    );
    // history has msns 2,3 with a MAP; now the window starts at 4 with a MAP too: extension is fine.
    expect(holdMediaPlaylist(fmp4, { hold: 1, history: withMapFirst }).extendedFromHistory).toBe(2);
    // A TS window after fMP4 history cannot be extended (the older map would stay in force).
    const ts = tsLive(4, 2).replace('#EXT-X-MEDIA-SEQUENCE:4', '#EXT-X-MEDIA-SEQUENCE:4\n#EXT-X-DISCONTINUITY-SEQUENCE:1');
    const r = holdMediaPlaylist(ts.replace(/seg(\d)\.ts/g, 's$1.m4s'), { hold: 1, history: withMapFirst });
    expect(r.extendedFromHistory).toBe(0);
    expect(r.appliedHold).toBe(0);
    expect(r.reason).toBe('short-window');
  });

  it('does not list history above a MAP that precedes a header tag (it would apply to them); holds less instead', () => {
    const origin =
      '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI="i.mp4"\n#EXT-X-MEDIA-SEQUENCE:10\n#EXTINF:2,\na10.m4s\n#EXTINF:2,\na11.m4s\n#EXTINF:2,\na12.m4s\n';
    const history = recordHlsHistory(
      createHlsHistory(),
      origin.replace('SEQUENCE:10', 'SEQUENCE:7').replace(/a1(\d)/g, (_, d) => `a${7 + Number(d)}`),
    );
    const r = holdMediaPlaylist(origin, { hold: 1, history });
    expect(r.extendedFromHistory).toBe(0);
    expect(r.appliedHold).toBe(0);
  });

  it('an empty live playlist holds nothing and reports the msn before the media sequence as last visible', () => {
    const r = holdMediaPlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:7\n', { hold: 2 });
    expect(r.appliedHold).toBe(0);
    expect(r.lastVisibleMsn).toBe(6);
    expect(r.reason).toBe('short-window');
  });

  it('keeps a UTF-8 BOM and unknown tags with odd spacing byte for byte', () => {
    const t = '\uFEFF' + tsLive(0, 5).replace('#EXT-X-VERSION:3', '#EXT-X-VERSION:3\n#EXT-X-VENDOR:  a = b ,,\n   ');
    const r = holdMediaPlaylist(t, { hold: 1 });
    expect(r.text.startsWith('\uFEFF#EXTM3U\n')).toBe(true);
    expect(r.text).toContain('\n#EXT-X-VENDOR:  a = b ,,\n   \n');
  });
});

describe('HlsHistory as stored data', () => {
  it('survives a JSON round trip (the service worker stores it) and gives the same result', () => {
    let history = createHlsHistory();
    history = recordHlsHistory(history, tsLive(95, 4));
    history = recordHlsHistory(history, tsLive(97, 4));
    const revived = JSON.parse(JSON.stringify(history));
    expect(holdMediaPlaylist(tsLive(100, 4), { hold: 2, history: revived })).toEqual(
      holdMediaPlaylist(tsLive(100, 4), { hold: 2, history }),
    );
  });

  it('a damaged history is ERR_HLS_INVALID_OPTIONS, not a TypeError or a broken playlist', () => {
    const good = recordHlsHistory(createHlsHistory(), tsLive(96, 4));
    const damaged = [
      { ...good, segments: [null, ...good.segments.slice(1)] },
      { ...good, segments: good.segments.map((s, i) => (i === 3 ? { ...s, uri: 'a\n#EXT-X-ENDLIST' } : s)) },
      { ...good, segments: good.segments.map((s, i) => (i === 3 ? { ...s, msn: 1 } : s)) },
      { ...good, segments: good.segments.map((s, i) => (i === 3 ? { ...s, tagLines: ['evil'] } : s)) },
    ];
    for (const history of damaged) {
      expect(() => holdMediaPlaylist(tsLive(100, 4), { hold: 2, history: history as never })).toThrow(
        expect.objectContaining({ code: 'ERR_HLS_INVALID_OPTIONS' }),
      );
    }
  });

  it('recordHlsHistory replaces a damaged stored history instead of failing', () => {
    const good = recordHlsHistory(createHlsHistory(), tsLive(96, 4));
    const damaged = { ...good, segments: [good.segments[0], null, good.segments[2]] } as never;
    expect(recordHlsHistory(damaged, tsLive(98, 4)).segments.map((s) => s.msn)).toEqual([98, 99, 100, 101]);
  });
});
