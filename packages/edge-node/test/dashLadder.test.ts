import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { createEdgeConfig, startEdge } from '../src/index.js';
import { closeAfterEach } from './helpers/closeAfterEach.js';
import { until } from './helpers/startTestOrigin.js';

// The origin's DASH ladder `15M+50M-2s` behind the edge: what crosses the backhaul is what the
// receivers play (before any segment request, the Representation players start on), not every
// Representation of the ladder.
const closing = closeAfterEach();

/** The segment numbers of one rung (video, else `a`: the ladder's audio) the origin was asked for. */
const rungFetches = (o: LiveOrigin, name: string, kind: 'v' | 'a' = 'v') =>
  Object.keys(o.stats().requests)
    .map((p) => new RegExp(`^/live/${name}/dash/${kind}/(\\d+)\\.m4s$`).exec(p)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);

describe('a DASH ladder behind the edge', () => {
  it('prefetches the start Representation only, then the one a receiver asks for from its head', async () => {
    const origin = closing(await startOrigin({ port: 0, streams: ['15M-2s', '50M-2s'] }));
    const edge = closing(await startEdge(createEdgeConfig({ origin: origin.url, port: 0, hold: 2, logLevel: 'silent' })));
    const mpd = await request(`${edge.url}/live/master-2s.mpd`);
    expect(mpd.statusCode).toBe(200);
    expect(await mpd.body.text()).toMatch(/<Representation id="50M-2s"/);
    // The start (x = 2: newest − 4 …, x + 1 at once) of the 15 Mbit/s rung, where dash.js starts,
    // and of the audio: planned in one round after the video tracks, the 50M rung's among them.
    const start = await until(
      () =>
        rungFetches(origin, '15M-2s').length >= 3 && rungFetches(origin, '15M-2s', 'a').length >= 3
          ? rungFetches(origin, '15M-2s')
          : undefined,
      'the start',
    );
    expect(rungFetches(origin, '50M-2s')).toEqual([]);
    // A receiver switches up: the 50 Mbit/s segment after the start's first (a miss), and x after it.
    const head = start[0]! + 1;
    const seg = await request(`${edge.url}/live/50M-2s/dash/v/${head}.m4s`);
    expect(seg.statusCode).toBe(200);
    await seg.body.dump();
    await until(() => rungFetches(origin, '50M-2s').length >= 3, 'the 50M head and x after it');
    expect(rungFetches(origin, '50M-2s')).toEqual([head, head + 1, head + 2]);
  });
});
