import { createEdgeConfig, startEdge, type RunningEdge } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { startHarness, type Harness } from '../fixtures/probeHarness.js';
import { STREAM, type Via } from './SHAPES.js';

export interface Matrix {
  origin: LiveOrigin;
  edges: Record<Exclude<Via, 'direct'>, RunningEdge>;
  harness: Harness;
  close(): Promise<void>;
}

/** Periods of 20 s: a 30 s cell crosses a Period boundary (a 12 s one passes 10). */
export const PERIOD_SECONDS = 20;

/**
 * The live origin (STREAM only), three edges in front of it — holding 0 segments, 2 segments, and
 * 2 parts of the LL streams (`--hold-parts 2`, other streams unheld) — and the probe's page server.
 */
export async function startMatrix(periodSeconds = PERIOD_SECONDS): Promise<Matrix> {
  const origin = await startOrigin({ port: 0, streams: [STREAM], periodSeconds, segmentsPerFile: 3 });
  const edge = (hold: number, holdParts?: number) =>
    startEdge(
      createEdgeConfig({ origin: origin.url, port: 0, hold, ...(holdParts === undefined ? {} : { holdParts }), logLevel: 'silent' }),
    );
  const edges = { 'hold-0': await edge(0), 'hold-2': await edge(2), 'parts-2': await edge(0, 2) };
  const harness = await startHarness();
  return {
    origin,
    edges,
    harness,
    async close() {
      await harness.close();
      for (const e of Object.values(edges)) await e.close();
      await origin.close();
    },
  };
}
