import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createEdgeConfig, startEdge } from '../src/index.js';
import { capturedLogger } from './helpers/capturedLogger.js';
import { closeAfterEach } from './helpers/closeAfterEach.js';
import { startTestOrigin } from './helpers/startTestOrigin.js';

const closing = closeAfterEach();

// An experiment's edge log (EXP_EDGE_LOG=1) explains a miss by when and how each segment reached
// the edge: every media fetch is one debug line with its timing and ranges; none at info.
describe('origin fetch timing in the debug log', () => {
  it.each(['debug', 'info'] as const)('at %s', async (level) => {
    const origin = closing(await startTestOrigin({ segmentBytes: 64 * 1024 }));
    origin.produce(4);
    const log = capturedLogger(level);
    const edge = closing(
      await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 0, originProbeMs: 0 }), { logger: log.logger }),
    );
    const playlist = await (await request(`${edge.url}/live/a/index.m3u8`)).body.text();
    const seg = /(seg\d+\.ts)\s*$/.exec(playlist.trim())![1]!;
    await (await request(`${edge.url}/live/a/${seg}`)).body.dump();
    const lines = log.lines.filter((l) => l.msg === 'origin fetch');
    if (level === 'info') return expect(lines).toEqual([]);
    const line = lines.find((l) => l.path === `/live/a/${seg}`);
    expect(line).toMatchObject({ origin: 'origin', outcome: 'ok', bytes: 64 * 1024, parts: 1 });
    expect(['segment', 'prefetch']).toContain(line!.kind);
    expect(line!.totalMs).toBeGreaterThanOrEqual(line!.ttfbMs as number);
    // Manifests are polled often and say nothing of a segment's arrival: not logged.
    expect(lines.every((l) => !String(l.path).endsWith('.m3u8'))).toBe(true);
  });
});
