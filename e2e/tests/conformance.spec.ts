/**
 * The short subset of the player conformance matrix that runs in `npm test` (12 s per cell, one
 * start group; the full matrix, 30 s, three groups and every row, is `npm run conformance`): the
 * edge paths no other spec plays through an edge — a multivariant playlist with an audio rendition
 * (Shaka), multi-period (Shaka), Location/absolute BaseURL routing, LL-HLS held in parts (Shaka,
 * low-latency mode); client byte ranges and SegmentTimeline are played by origin-shapes.spec.ts and
 * dash-refresh.spec.ts and held by the edge's unit tests — each
 * through an edge holding 0 and one holding, opened together. See e2e/conformance/judgeRow.ts for
 * what a cell checks.
 */
import { expect, test } from '@playwright/test';
import { runRow } from '../conformance/runRow.js';
import { PLAYER_NAME, SHAPES, type Player, type Via } from '../conformance/SHAPES.js';
import { startMatrix, type Matrix } from '../conformance/startMatrix.js';

const SECONDS = 12;
const ROWS: ReadonlyArray<[player: Player, shape: string, vias: readonly Via[]]> = [
  ['shaka', 'hls-master-audio', ['hold-0', 'hold-2']],
  ['shaka', 'dash-periods', ['hold-0', 'hold-2']],
  ['dash', 'dash-location', ['hold-0', 'hold-2']],
  ['shaka', 'll-hls', ['hold-0', 'parts-2']],
];

let m: Matrix;
test.beforeAll(async () => {
  m = await startMatrix(10); // 10 s Periods: a 12 s cell crosses a boundary
});
test.afterAll(() => m?.close());

for (const [player, id, vias] of ROWS) {
  const shape = SHAPES.find((x) => x.id === id)!;
  test(`conformance: ${PLAYER_NAME[player]} ${id} via ${vias.join(', ')}`, async ({ browser }) => {
    test.setTimeout(150_000);
    const row = await runRow({ browser, harness: m.harness, originUrl: m.origin.url, edges: m.edges }, shape, player, SECONDS, 1, vias);
    for (const c of row) {
      test.info().annotations.push({
        type: c.via,
        description: `latency ${c.latency?.mean.toFixed(2)} s, − ${c.deltaRef} ${c.delta?.mean.toFixed(2)} s, declared ${c.declaredS}, manifest lag ${c.manifestLag?.mean.toFixed(2)} s (${c.manifestLag?.n} readings)`,
      });
      expect.soft(c.failures, `${id} via ${c.via}`).toEqual([]);
    }
  });
}
