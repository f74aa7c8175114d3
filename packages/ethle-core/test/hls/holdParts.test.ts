import { describe, expect, it } from 'vitest';
import { createHlsHistory, holdMediaPlaylist, parseMediaPlaylist, recordHlsHistory } from '@ethle/core';

// An LL-HLS origin playlist: 4 s segments of four 1 s parts, parts listed for the last two
// complete segments and the segment in progress (270: one part so far, the next one hinted).
const LL = `#EXTM3U
#EXT-X-TARGETDURATION:4
#EXT-X-VERSION:9
#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0,CAN-SKIP-UNTIL=24.0
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
#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:12.000Z
#EXT-X-PART:DURATION=1.0,URI="p269.0.mp4",INDEPENDENT=YES
#EXT-X-PART:DURATION=1.0,URI="p269.1.mp4"
#EXT-X-PART:DURATION=1.0,URI="p269.2.mp4"
#EXT-X-PART:DURATION=1.0,URI="p269.3.mp4"
#EXTINF:4.0,
s269.mp4
#EXT-X-PART:DURATION=1.0,URI="p270.0.mp4",INDEPENDENT=YES
#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p270.1.mp4"
#EXT-X-RENDITION-REPORT:URI="../1M/index.m3u8",LAST-MSN=270,LAST-PART=0
#EXT-X-RENDITION-REPORT:URI="../4M/index.m3u8",LAST-MSN=269
`;
const HEAD = LL.slice(0, LL.indexOf('#EXT-X-PART:DURATION=1.0,URI="p268.0.mp4"'));

describe('holdMediaPlaylist — holding in parts (holdParts)', () => {
  it('N within the segment in progress: its newest part goes, the hint names it, reports move back one part', () => {
    const r = holdMediaPlaylist(LL, { holdParts: 1 });
    expect(r.text).toBe(
      LL.replace(
        `#EXT-X-PART:DURATION=1.0,URI="p270.0.mp4",INDEPENDENT=YES
#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p270.1.mp4"
#EXT-X-RENDITION-REPORT:URI="../1M/index.m3u8",LAST-MSN=270,LAST-PART=0
#EXT-X-RENDITION-REPORT:URI="../4M/index.m3u8",LAST-MSN=269`,
        `#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p270.0.mp4"
#EXT-X-RENDITION-REPORT:URI="../1M/index.m3u8",LAST-MSN=269,LAST-PART=3
#EXT-X-RENDITION-REPORT:URI="../4M/index.m3u8",LAST-MSN=268`,
      ),
    );
    expect(r).toMatchObject({
      heldParts: 1,
      requestedParts: 1,
      heldSeconds: 1,
      appliedHold: 0,
      held: [],
      lastVisibleMsn: 269,
      lastVisiblePart: { msn: 269, part: 3 },
      partsPerSegment: 4,
    });
    expect(r.heldPartList).toEqual([{ msn: 270, part: 0, uri: 'p270.0.mp4', duration: 1 }]);
    expect(r.reason).toBeUndefined();
  });

  it('N crossing a segment boundary: the partly held segment is listed in progress (its parts, PDT kept; no EXTINF/URI)', () => {
    const r = holdMediaPlaylist(LL, { holdParts: 3 });
    expect(r.text).toBe(`${HEAD}#EXT-X-PART:DURATION=1.0,URI="p268.0.mp4",INDEPENDENT=YES
#EXT-X-PART:DURATION=1.0,URI="p268.1.mp4"
#EXT-X-PART:DURATION=1.0,URI="p268.2.mp4"
#EXT-X-PART:DURATION=1.0,URI="p268.3.mp4"
#EXTINF:4.0,
s268.mp4
#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:12.000Z
#EXT-X-PART:DURATION=1.0,URI="p269.0.mp4",INDEPENDENT=YES
#EXT-X-PART:DURATION=1.0,URI="p269.1.mp4"
#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p269.2.mp4"
#EXT-X-RENDITION-REPORT:URI="../1M/index.m3u8",LAST-MSN=269,LAST-PART=1
#EXT-X-RENDITION-REPORT:URI="../4M/index.m3u8",LAST-MSN=268
`);
    expect(r.heldPartList!.map((h) => `${h.msn}.${h.part}`)).toEqual(['269.2', '269.3', '270.0']);
    expect(r).toMatchObject({ heldParts: 3, heldSeconds: 3, appliedHold: 1, lastVisibleMsn: 268, lastVisiblePart: { msn: 269, part: 1 } });
    expect(r.held).toEqual([{ msn: 269, uri: 's269.mp4', duration: 4 }]);
    const p = parseMediaPlaylist(r.text);
    expect(p.partialSegment).toEqual({
      msn: 269,
      parts: [expect.objectContaining({ uri: 'p269.0.mp4' }), expect.objectContaining({ uri: 'p269.1.mp4' })],
    });
    expect(p.preloadHints).toEqual([expect.objectContaining({ type: 'PART', uri: 'p269.2.mp4' })]);
    expect(p.serverControl).toMatchObject({ canBlockReload: true, partHoldBack: 3, canSkipUntil: 24 });
  });

  it('N ending exactly on a segment boundary: the whole segment and its PDT go, the hint names its first part', () => {
    const r = holdMediaPlaylist(LL, { holdParts: 5 });
    expect(r.text).toBe(`${HEAD}#EXT-X-PART:DURATION=1.0,URI="p268.0.mp4",INDEPENDENT=YES
#EXT-X-PART:DURATION=1.0,URI="p268.1.mp4"
#EXT-X-PART:DURATION=1.0,URI="p268.2.mp4"
#EXT-X-PART:DURATION=1.0,URI="p268.3.mp4"
#EXTINF:4.0,
s268.mp4
#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p269.0.mp4"
#EXT-X-RENDITION-REPORT:URI="../1M/index.m3u8",LAST-MSN=268,LAST-PART=3
#EXT-X-RENDITION-REPORT:URI="../4M/index.m3u8",LAST-MSN=267
`);
    expect(r).toMatchObject({ heldParts: 5, heldSeconds: 5, appliedHold: 1, lastVisibleMsn: 268, lastVisiblePart: { msn: 268, part: 3 } });
    expect(parseMediaPlaylist(r.text).partialSegment).toBeUndefined();
  });

  it('holds only the parts listed, and no more than 3 × target duration allows', () => {
    // 9 parts are listed; holding all would leave 266..267 (8 s < 12 s): only the segment 269's parts and 270's fit.
    const r = holdMediaPlaylist(LL, { holdParts: 9 });
    expect(r).toMatchObject({ heldParts: 5, appliedHold: 1, reason: 'short-window' });
    const longer = LL.replace(
      '#EXT-X-MEDIA-SEQUENCE:266\n#EXT-X-MAP:URI="init.mp4"\n',
      '#EXT-X-MEDIA-SEQUENCE:264\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:4.0,\ns264.mp4\n#EXTINF:4.0,\ns265.mp4\n',
    );
    const all = holdMediaPlaylist(longer, { holdParts: 20 });
    expect(all).toMatchObject({ heldParts: 9, appliedHold: 2, reason: 'parts-not-listed', lastVisibleMsn: 267 });
    expect(all.lastVisiblePart).toBeUndefined();
    expect(all.text).toContain('#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p268.0.mp4"');
    expect(all.text).not.toContain('#EXT-X-PART:');
  });

  it('lists older segments again from history to keep 3 × target duration, rather than holding fewer parts', () => {
    const older = LL.replace('#EXT-X-MEDIA-SEQUENCE:266', '#EXT-X-MEDIA-SEQUENCE:264').replace(
      '#EXTINF:4.0,\ns266.mp4\n',
      '#EXTINF:4.0,\ns264.mp4\n#EXTINF:4.0,\ns265.mp4\n#EXTINF:4.0,\ns266.mp4\n',
    );
    const history = recordHlsHistory(recordHlsHistory(createHlsHistory(), older), LL);
    const r = holdMediaPlaylist(LL, { holdParts: 7, history });
    expect(r).toMatchObject({ heldParts: 7, appliedHold: 2, extendedFromHistory: 1 });
    expect(r.reason).toBeUndefined();
    const p = parseMediaPlaylist(r.text);
    expect(p.mediaSequence).toBe(265);
    expect(p.segments.map((s) => s.msn)).toEqual([265, 266, 267]);
    expect(p.partialSegment?.parts.map((q) => q.uri)).toEqual(['p268.0.mp4', 'p268.1.mp4']);
    expect(p.preloadHints.map((h) => h.uri)).toEqual(['p268.2.mp4']);
  });

  it('a playlist without parts holds nothing and says why; an ended one passes through', () => {
    const plain =
      '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n' + [0, 1, 2, 3].map((i) => `#EXTINF:2,\ns${i}.ts\n`).join('');
    expect(holdMediaPlaylist(plain, { holdParts: 2 })).toMatchObject({
      text: plain,
      heldParts: 0,
      heldSeconds: 0,
      reason: 'parts-not-listed',
    });
    expect(holdMediaPlaylist(`${plain}#EXT-X-ENDLIST\n`, { holdParts: 2 })).toMatchObject({ heldParts: 0, reason: 'ended' });
  });

  it('writes a valid PART-HOLD-BACK (≥ 2 × PART-TARGET) when the origin gives none or too little', () => {
    const low = holdMediaPlaylist(LL.replace('PART-HOLD-BACK=3.0', 'PART-HOLD-BACK=1.0'), { holdParts: 1 });
    expect(low.text).toContain('#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3,CAN-SKIP-UNTIL=24.0\n');
    const none = holdMediaPlaylist(LL.replace('#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0,CAN-SKIP-UNTIL=24.0\n', ''), {
      holdParts: 1,
    });
    expect(none.text).toContain('#EXT-X-PART-INF:PART-TARGET=1.0\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n');
    expect(parseMediaPlaylist(none.text).serverControl?.partHoldBack).toBe(3);
  });

  it('routes the hint, and gives a byte range for a byte-range part', () => {
    const br = LL.replace('URI="p270.0.mp4",INDEPENDENT=YES', 'URI="s270.mp4",BYTERANGE="5000@0",INDEPENDENT=YES');
    const r = holdMediaPlaylist(br, { holdParts: 1, route: (u) => `E/${u}` });
    expect(r.text).toContain('#EXT-X-PRELOAD-HINT:TYPE=PART,URI="E/s270.mp4",BYTERANGE-START=0,BYTERANGE-LENGTH=5000\n');
    expect(r.heldPartList![0]).toEqual({ msn: 270, part: 0, uri: 's270.mp4', duration: 1, byteRange: { offset: 0, length: 5000 } });
  });

  it('rejects holdParts with hold > 0, with lowLatency strip, or out of range', () => {
    for (const o of [
      { hold: 1, holdParts: 1 },
      { holdParts: 1, lowLatency: 'strip' as const },
      { holdParts: -1 },
      { holdParts: 1.5 },
      { holdParts: 1e6 },
    ]) {
      expect(() => holdMediaPlaylist(LL, o)).toThrow(expect.objectContaining({ code: 'ERR_HLS_INVALID_OPTIONS' }));
    }
    expect(holdMediaPlaylist(LL, { hold: 0, holdParts: 0 }).text).toBe(LL);
  });
});
