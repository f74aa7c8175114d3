import { describe, expect, it } from 'vitest';
import { holdMediaPlaylist, planBlockingReload, readHlsDirectives, type HeldPlaylistPosition } from '@ethle/core';

const q = (s: string) => {
  const u = new URLSearchParams(s);
  return (n: string) => u.get(n);
};

describe('readHlsDirectives', () => {
  it('reads _HLS_msn, _HLS_part and _HLS_skip', () => {
    expect(readHlsDirectives(q('_HLS_msn=270&_HLS_part=2&_HLS_skip=YES'))).toEqual({
      ok: true,
      directives: { msn: 270, part: 2, skip: 'YES' },
    });
    expect(readHlsDirectives(q('x=1'))).toEqual({ ok: true, directives: {} });
    expect(readHlsDirectives(q('_HLS_skip=v2'))).toEqual({ ok: true, directives: { skip: 'v2' } });
  });

  it('answers 400 for a malformed directive or _HLS_part without _HLS_msn (RFC 8216bis §6.2.5.2)', () => {
    expect(readHlsDirectives(q('_HLS_part=1'))).toMatchObject({ ok: false, status: 400, reason: 'part-without-msn' });
    expect(readHlsDirectives(q('_HLS_msn=-1'))).toMatchObject({ ok: false, status: 400, reason: 'bad-msn' });
    expect(readHlsDirectives(q('_HLS_msn=1&_HLS_part=1.5'))).toMatchObject({ ok: false, status: 400, reason: 'bad-part' });
    expect(readHlsDirectives(q('_HLS_skip=yes'))).toMatchObject({ ok: false, status: 400, reason: 'bad-skip' });
  });
});

// The served playlist of a 2 s-segment stream with 0.5 s parts (4 per segment) held by N = 2 parts:
// the edge lists complete segments up to 100 and parts of 101 up to part 1.
const HELD: HeldPlaylistPosition = {
  lastMsn: 100,
  lastPart: { msn: 101, part: 1 },
  partsPerSegment: 4,
  partTarget: 0.5,
  targetDuration: 2,
};

describe('planBlockingReload', () => {
  it('answers at once what the served playlist already lists', () => {
    expect(planBlockingReload({ msn: 101, part: 1 }, HELD, 2)).toEqual({ action: 'answer' });
    expect(planBlockingReload({ msn: 100 }, HELD, 2)).toEqual({ action: 'answer' });
    expect(planBlockingReload({ msn: 90, part: 3 }, HELD, 2)).toEqual({ action: 'answer' });
    expect(planBlockingReload({ msn: 200 }, { ...HELD, ended: true }, 2)).toEqual({ action: 'answer' });
  });

  it('waits for the requested part + N parts at the origin, carried across segment boundaries', () => {
    // The next part: (101, 2) is listed once the origin lists (101, 2) + 2 = (102, 0).
    expect(planBlockingReload({ msn: 101, part: 2 }, HELD, 2)).toEqual({
      action: 'wait',
      origin: { msn: 102, part: 0 },
      timeoutSeconds: 6,
    });
    expect(planBlockingReload({ msn: 101, part: 3 }, HELD, 2)).toMatchObject({ origin: { msn: 102, part: 1 } });
    // A part index past the parent's last is part 0 of the next segment (§6.2.5.2).
    expect(planBlockingReload({ msn: 101, part: 4 }, HELD, 2)).toMatchObject({ origin: { msn: 102, part: 2 } });
    // Segment 101 complete (no _HLS_part): its last part, (101, 3), + 2.
    expect(planBlockingReload({ msn: 101 }, HELD, 2)).toMatchObject({ origin: { msn: 102, part: 1 } });
    // N = 9 crosses two boundaries: (101, 2) + 9 = 4·101 + 11 = (103, 3).
    expect(planBlockingReload({ msn: 101, part: 2 }, HELD, 9)).toMatchObject({ origin: { msn: 103, part: 3 } });
    // No hold: the origin position itself.
    expect(planBlockingReload({ msn: 101, part: 2 }, HELD, 0)).toMatchObject({ origin: { msn: 101, part: 2 } });
  });

  it('rejects with 400 what is too far ahead of the served playlist: msn > last + 2, or past the Advance Part Limit', () => {
    expect(planBlockingReload({ msn: 103 }, HELD, 2)).toEqual({ action: 'reject', status: 400, reason: 'msn-too-far' });
    expect(planBlockingReload({ msn: 102 }, HELD, 2)).toMatchObject({ action: 'wait' });
    // PART-TARGET 0.5 s: the limit is 3 / 0.5 = 6 parts past (101, 1), i.e. up to (102, 3).
    expect(planBlockingReload({ msn: 102, part: 3 }, HELD, 2)).toMatchObject({ action: 'wait' });
    expect(planBlockingReload({ msn: 103, part: 0 }, { ...HELD, lastMsn: 101 }, 2)).toMatchObject({ action: 'wait' });
    expect(planBlockingReload({ msn: 102, part: 4 }, HELD, 2)).toEqual({ action: 'reject', status: 400, reason: 'part-too-far' });
    // PART-TARGET ≥ 1 s: 3 parts.
    expect(planBlockingReload({ msn: 102, part: 0 }, { ...HELD, partTarget: 1 }, 2)).toMatchObject({ action: 'wait' });
    expect(planBlockingReload({ msn: 102, part: 1 }, { ...HELD, partTarget: 1 }, 2)).toMatchObject({
      action: 'reject',
      reason: 'part-too-far',
    });
  });

  it('agrees with holdMediaPlaylist: the origin position it names makes the held playlist list the request', () => {
    const origin = (lastMsn: number, parts: number) => {
      const lines = [
        '#EXTM3U',
        '#EXT-X-VERSION:9',
        '#EXT-X-TARGETDURATION:2',
        '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.5',
        '#EXT-X-PART-INF:PART-TARGET=0.5',
        `#EXT-X-MEDIA-SEQUENCE:${lastMsn - 5}`,
        '#EXT-X-MAP:URI="init.mp4"',
      ];
      for (let m = lastMsn - 5; m <= lastMsn; m++) {
        if (m >= lastMsn - 1) for (let j = 0; j < 4; j++) lines.push(`#EXT-X-PART:DURATION=0.5,URI="p${m}.${j}.mp4"`);
        lines.push('#EXTINF:2.0,', `s${m}.mp4`);
      }
      for (let j = 0; j < parts; j++) lines.push(`#EXT-X-PART:DURATION=0.5,URI="p${lastMsn + 1}.${j}.mp4"`);
      lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="p${lastMsn + 1}.${parts}.mp4"`);
      return `${lines.join('\n')}\n`;
    };
    const N = 3;
    const now = holdMediaPlaylist(origin(100, 2), { holdParts: N });
    const held: HeldPlaylistPosition = {
      lastMsn: now.lastVisibleMsn,
      lastPart: now.lastVisiblePart!,
      partsPerSegment: now.partsPerSegment!,
      partTarget: 0.5,
      targetDuration: 2,
    };
    // 101.1, 101.0 and 100.3 are held: 100 is listed in progress.
    expect(held).toMatchObject({ lastMsn: 99, lastPart: { msn: 100, part: 2 } });
    const next = planBlockingReload({ msn: 100, part: 3 }, held, N);
    expect(next).toMatchObject({ action: 'wait', origin: { msn: 101, part: 2 } });
    const o = (next as { origin: { msn: number; part: number } }).origin;
    const later = holdMediaPlaylist(origin(o.msn - 1, o.part + 1), { holdParts: N });
    expect(later.lastVisiblePart).toEqual({ msn: 100, part: 3 });
    // One part earlier at the origin is not enough.
    expect(holdMediaPlaylist(origin(o.msn - 1, o.part), { holdParts: N }).lastVisiblePart).toEqual({ msn: 100, part: 2 });
  });

  it('rejects nonsense inputs with ERR_HLS_INVALID_OPTIONS', () => {
    for (const [r, h, n] of [
      [{ msn: -1 }, HELD, 1],
      [{ msn: 1, part: 0.5 }, HELD, 1],
      [{ msn: 1 }, { ...HELD, partsPerSegment: 0 }, 1],
      [{ msn: 1 }, HELD, -2],
    ] as const) {
      expect(() => planBlockingReload(r, h, n)).toThrow(expect.objectContaining({ code: 'ERR_HLS_INVALID_OPTIONS' }));
    }
  });
});
