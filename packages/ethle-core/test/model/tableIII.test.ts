import { describe, expect, it } from 'vitest';
import { modelHold } from '@ethle/core';

// ETHLE paper, Table I (segment sizes, MB = 10^6 bytes) and Table III "Modeled" columns.
// Locations: US West 137 ms, Japan 224 ms, Australia 302 ms, India 334 ms; th_ran = 60 Mbit/s.
// With the stated RTTs, US West and Japan match to < 5 %; Australia comes out ~9.6 % low and India
// ~5.6 % high in every row alike. The paper's own Australia/India figures fit RTTs of ~272 ms and
// ~353 ms (e.g. 15M-2s: 3.7e6·8/9.6e6 = 3.08 s over log2(2556) = 11.32 rounds), i.e. its model
// likely used RTTs other than the ones it states; we keep the stated RTTs and accept that error.
const RTT_MS = [137, 224, 302, 334] as const;
const TABLE_III = [
  { stream: '15M-2s', bytes: 3.7e6, seconds: 2, x: [1, 2, 2, 3], mbps: [20.0, 11.7, 9.6, 7.4] },
  { stream: '15M-4s', bytes: 7.2e6, seconds: 4, x: [0, 0, 1, 1], mbps: [34.4, 21.0, 17.2, 13.3] },
  { stream: '15M-10s', bytes: 18.3e6, seconds: 10, x: [0, 0, 0, 0], mbps: [78.7, 48.1, 39.3, 30.5] },
  { stream: '50M-2s', bytes: 12.2e6, seconds: 2, x: [1, 2, 2, 3], mbps: [54.8, 33.5, 27.4, 21.2] },
  { stream: '50M-4s', bytes: 24.4e6, seconds: 4, x: [1, 1, 1, 2], mbps: [101.8, 62.3, 50.9, 39.4] },
] as const;

describe('backhaul model reproduces Table III (IW 1, MSS 1448, th_ran 60 Mbit/s)', () => {
  const cells = TABLE_III.flatMap((row) =>
    RTT_MS.map((rtt, i) => {
      const r = modelHold({
        rttSeconds: rtt / 1000,
        segmentBytes: row.bytes,
        segmentSeconds: row.seconds,
        ranBps: 60e6,
        bitrateBps: row.stream.startsWith('15M') ? 15e6 : 50e6,
        initialWindowSegments: 1,
        mssBytes: 1448,
      });
      const mbps = r.backhaul.bps / 1e6;
      return {
        cell: `${row.stream}@${rtt}ms`,
        paperMbps: row.mbps[i]!,
        mbps,
        relErr: Math.abs(mbps - row.mbps[i]!) / row.mbps[i]!,
        paperX: row.x[i]!,
        x: r.hold,
      };
    }),
  );

  it('states all 20 modeled cells and prints the comparison', () => {
    expect(cells).toHaveLength(20);
    // The tallies, for the record (vitest shows them with the test output).
    const exact = cells.filter((c) => c.x === c.paperX).length;
    const mean = cells.reduce((a, c) => a + c.relErr, 0) / cells.length;
    const worst = Math.max(...cells.map((c) => c.relErr));
    console.log(
      [
        'cell              paper x/Mbps   model x/Mbps   error',
        ...cells.map(
          (c) =>
            `${c.cell.padEnd(16)}  ${String(c.paperX).padStart(2)} ${c.paperMbps.toFixed(1).padStart(6)}    ${String(c.x).padStart(4)} ${c.mbps.toFixed(1).padStart(6)}   ${(c.relErr * 100).toFixed(1)} %`,
        ),
        `x exact in ${exact}/20, within ±1 in ${cells.filter((c) => Math.abs((c.x ?? 99) - c.paperX) <= 1).length}/20; th_bh error mean ${(mean * 100).toFixed(1)} %, worst ${(worst * 100).toFixed(1)} %`,
      ].join('\n'),
    );
  });

  it('every modeled backhaul throughput is within 12 %, mean within 6 %', () => {
    for (const c of cells) expect(c.relErr, `${c.cell}: model ${c.mbps.toFixed(2)} vs paper ${c.paperMbps}`).toBeLessThanOrEqual(0.12);
    const mean = cells.reduce((a, c) => a + c.relErr, 0) / cells.length;
    expect(mean).toBeLessThanOrEqual(0.06);
  });

  it('x is exact in at least 17 of 20 cells and within ±1 in all', () => {
    const exact = cells.filter((c) => c.x === c.paperX).length;
    for (const c of cells) {
      expect(c.x, c.cell).not.toBeNull();
      expect(Math.abs((c.x ?? 99) - c.paperX), `${c.cell}: model x=${c.x} vs paper ${c.paperX}`).toBeLessThanOrEqual(1);
    }
    expect(exact).toBeGreaterThanOrEqual(17);
  });
});
