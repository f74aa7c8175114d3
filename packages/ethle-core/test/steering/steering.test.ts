import { describe, expect, it } from 'vitest';
import { addHlsSteering, createSteeringManifest, EthleError, parseMultivariantPlaylist } from '../../src/index.js';

const pathways = [
  { id: 'edge-a', host: 'edge-a.mec.example', ready: true, load: 40 },
  { id: 'edge-b', host: 'edge-b.mec.example', ready: true, load: 10 },
  { id: 'edge-c', host: 'edge-c.mec.example', ready: false, load: 0 },
  { id: 'origin', host: 'origin.example', ready: true, load: 0, lastResort: true },
];

describe('createSteeringManifest', () => {
  it('ready edges least loaded first, unready left out, the origin last; the others as clones of the base', () => {
    const m = createSteeringManifest({ pathways, basePathway: 'edge-a', ttlSeconds: 5, reloadUri: '/_ethle/steering' });
    expect(m).toEqual({
      VERSION: 1,
      TTL: 5,
      'RELOAD-URI': '/_ethle/steering',
      'PATHWAY-PRIORITY': ['edge-b', 'edge-a', 'origin'],
      'PATHWAY-CLONES': [
        { 'BASE-ID': 'edge-a', ID: 'edge-b', 'URI-REPLACEMENT': { HOST: 'edge-b.mec.example' } },
        { 'BASE-ID': 'edge-a', ID: 'origin', 'URI-REPLACEMENT': { HOST: 'origin.example' } },
      ],
    });
  });
  it('when no edge is ready, every edge stays listed before the origin (a player keeps trying them)', () => {
    const down = pathways.map((p) => (p.lastResort ? p : { ...p, ready: false }));
    expect(createSteeringManifest({ pathways: down, basePathway: 'edge-b', ttlSeconds: 5 })['PATHWAY-PRIORITY']).toEqual(['edge-a', 'edge-b', 'edge-c', 'origin']);
  });
  it.each([
    [{ pathways, basePathway: 'nope', ttlSeconds: 5 }, /unknown base pathway/],
    [{ pathways, basePathway: 'edge-a', ttlSeconds: 0 }, /ttlSeconds/],
    [{ pathways: [{ id: 'a b', host: 'h', ready: true, load: 0 }], basePathway: 'a b', ttlSeconds: 5 }, /pathway id/],
  ])('refuses bad input with a code (%#)', (input, msg) => {
    expect(() => createSteeringManifest(input)).toThrow(msg);
    expect(() => createSteeringManifest(input)).toThrow(EthleError);
  });
});

describe('addHlsSteering', () => {
  const mv = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000,PATHWAY-ID="old"\nlo/index.m3u8\n#EXT-X-STREAM-INF:PATHWAY-ID="old",BANDWIDTH=8000000\nhi/index.m3u8\n';
  it('declares the steering server and the initial pathway, and tags every variant with it', () => {
    const out = addHlsSteering(mv, { serverUri: 'http://edge-a/_ethle/steering', pathwayId: 'edge-a' });
    const lines = out.split('\n');
    expect(lines[1]).toBe('#EXT-X-CONTENT-STEERING:SERVER-URI="http://edge-a/_ethle/steering",PATHWAY-ID="edge-a"');
    const parsed = parseMultivariantPlaylist(out);
    expect(parsed.variants.map((v) => [v.uri, v.attributes['PATHWAY-ID'], v.bandwidth])).toEqual([
      ['lo/index.m3u8', 'edge-a', 2000000],
      ['hi/index.m3u8', 'edge-a', 8000000],
    ]);
    // Applied twice: still one steering tag, one PATHWAY-ID per variant.
    const again = addHlsSteering(out, { serverUri: 'http://edge-a/_ethle/steering', pathwayId: 'edge-a' });
    expect(again).toBe(out);
  });
});
