/**
 * The short subset of the player conformance matrix that runs in `npm test` (12 s per cell; the
 * full matrix, 30 s per cell and every format, is `npm run conformance`): one row for each edge
 * path the new stream shapes take — client byte ranges, a SegmentTimeline hold (AST moved with the
 * trim), multi-period, Location/absolute BaseURL routing, a multivariant playlist with an audio
 * rendition — each played directly and through the edge at the same time. See
 * e2e/conformance/runRow.ts for what a cell checks.
 */
import { expect, test } from '@playwright/test';
import { FORMATS, type Via } from '../conformance/FORMATS.js';
import { runRow } from '../conformance/runRow.js';
import { startMatrix, type Matrix } from '../conformance/startMatrix.js';

const SECONDS = 12;
const ROWS: ReadonlyArray<[format: string, vias: readonly Via[]]> = [
  ['hls-byterange', ['direct', 'hold-2']],
  ['hls-master-audio', ['direct', 'hold-0']],
  ['dash-timeline', ['direct', 'hold-2']],
  ['dash-periods', ['direct', 'hold-2']],
  ['dash-location', ['direct', 'hold-2']],
];

let m: Matrix;
test.beforeAll(async () => {
  m = await startMatrix(10); // 10 s Periods: a 12 s cell crosses a boundary
});
test.afterAll(() => m?.close());

for (const [id, vias] of ROWS) {
  const f = FORMATS.find((x) => x.id === id)!;
  test(`conformance: ${f.player === 'hls' ? 'hls.js' : 'dash.js'} ${id} via ${vias.join(', ')}`, async ({ browser }) => {
    const row = await runRow({ browser, harness: m.harness, originUrl: m.origin.url, edges: m.edges }, f, vias, SECONDS);
    for (const c of row) {
      test.info().annotations.push({ type: c.via, description: `latency ${c.latencyS?.toFixed(2)} s, − direct ${c.deltaS?.toFixed(2)} s, declared ${c.declaredS}` });
      expect.soft(c.failures, `${id} via ${c.via}`).toEqual([]);
    }
  });
}
