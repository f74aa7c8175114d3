import { createEdgeConfig, startEdge, type RunningEdge } from '@ethle/edge-node';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { startHarness, type Harness } from '../fixtures/probeHarness.js';
import { STREAM } from './FORMATS.js';

export interface Matrix {
  origin: LiveOrigin;
  edges: { 'hold-0': RunningEdge; 'hold-2': RunningEdge };
  harness: Harness;
  close(): Promise<void>;
}

/** Periods of 20 s: a 30 s cell crosses a Period boundary (a 12 s one passes 10). */
export const PERIOD_SECONDS = 20;

/** The live origin (STREAM only), an edge holding 0 and one holding 2 in front of it, and the probe's page server. */
export async function startMatrix(periodSeconds = PERIOD_SECONDS): Promise<Matrix> {
  const origin = await startOrigin({ port: 0, streams: [STREAM], periodSeconds, segmentsPerFile: 3 });
  const edge = (hold: number) => startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold, logLevel: 'silent' }));
  const edges = { 'hold-0': await edge(0), 'hold-2': await edge(2) };
  const harness = await startHarness();
  return {
    origin,
    edges,
    harness,
    async close() {
      await harness.close();
      await edges['hold-0'].close();
      await edges['hold-2'].close();
      await origin.close();
    },
  };
}
