import { describe, expect, it } from 'vitest';
import {
  addDashSteering,
  addHlsSteering,
  createSteeringManifest,
  EthleError,
  parseMpd,
  parseMultivariantPlaylist,
} from '../../src/index.js';

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
    expect(createSteeringManifest({ pathways: down, basePathway: 'edge-b', ttlSeconds: 5 })['PATHWAY-PRIORITY']).toEqual([
      'edge-a',
      'edge-b',
      'edge-c',
      'origin',
    ]);
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
  const mv =
    '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000,PATHWAY-ID="old"\nlo/index.m3u8\n#EXT-X-STREAM-INF:PATHWAY-ID="old",BANDWIDTH=8000000\nhi/index.m3u8\n';
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

describe('addDashSteering', () => {
  const mpd = `<?xml version="1.0"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-11-22T00:00:00Z" minimumUpdatePeriod="PT2S" profiles="urn:mpeg:dash:profile:isoff-live:2011">
  <Period id="p0" start="PT0S">
    <AdaptationSet mimeType="video/mp4"><SegmentTemplate timescale="1" duration="2" media="v/$Number$.m4s" initialization="v/init.mp4"/><Representation id="v" bandwidth="2000000"/></AdaptationSet>
  </Period>
</MPD>`;
  it('adds the steering server and this edge as a service location with its base URL; the MPD still parses', () => {
    const out = addDashSteering(mpd, {
      serverUri: 'http://edge-a/_ethle/steering?x=1&y=2',
      serviceLocation: 'edge-a',
      baseUrl: 'http://edge-a/live/2M-2s/',
    });
    expect(out).toContain('<BaseURL serviceLocation="edge-a">http://edge-a/live/2M-2s/</BaseURL>');
    expect(out).toContain(
      '<ContentSteering defaultServiceLocation="edge-a" queryBeforeStart="true">http://edge-a/_ethle/steering?x=1&amp;y=2</ContentSteering>',
    );
    const info = parseMpd(out);
    expect(info.periods[0]!.representations[0]!.baseUrls).toEqual(['http://edge-a/live/2M-2s/']);
  });
  it('writes a Location for this edge first, then one per peer (dash.js refreshes from the steered one, query kept)', () => {
    const out = addDashSteering(mpd, {
      serverUri: 's',
      serviceLocation: 'edge-a',
      baseUrl: 'http://edge-a/live/2M-2s/',
      location: 'http://edge-a/live/2M-2s/manifest.mpd?t=1&u=2',
      peerLocations: [{ serviceLocation: 'edge-b', url: 'http://edge-b:8080/live/2M-2s/manifest.mpd?t=1' }],
    });
    const locations = [...out.matchAll(/<Location serviceLocation="([^"]+)">([^<]+)<\/Location>/g)].map((m) => [m[1], m[2]]);
    expect(locations).toEqual([
      ['edge-a', 'http://edge-a/live/2M-2s/manifest.mpd?t=1&amp;u=2'],
      ['edge-b', 'http://edge-b:8080/live/2M-2s/manifest.mpd?t=1'],
    ]);
    expect(parseMpd(out).periods[0]!.representations[0]!.baseUrls).toEqual(['http://edge-a/live/2M-2s/']);
    // Without a Location of its own there is nothing to refresh from, and no peer Locations either.
    expect(
      addDashSteering(mpd, { serverUri: 's', serviceLocation: 'a', baseUrl: 'b', peerLocations: [{ serviceLocation: 'p', url: 'u' }] }),
    ).not.toContain('<Location');
  });
  it("writes a BaseURL per peer after this edge's (dash.js clones only BaseURLs the MPD has); the first stays the base", () => {
    const out = addDashSteering(mpd, {
      serverUri: 's',
      serviceLocation: 'edge-a',
      baseUrl: 'http://edge-a/live/2M-2s/',
      peerBaseUrls: [{ serviceLocation: 'edge-b', url: 'http://edge-b:8080/live/2M-2s/' }],
    });
    const bases = [...out.matchAll(/<BaseURL serviceLocation="([^"]+)">([^<]+)<\/BaseURL>/g)].map((m) => [m[1], m[2]]);
    expect(bases).toEqual([
      ['edge-a', 'http://edge-a/live/2M-2s/'],
      ['edge-b', 'http://edge-b:8080/live/2M-2s/'],
    ]);
    expect(parseMpd(out).periods[0]!.representations[0]!.baseUrls).toEqual(['http://edge-a/live/2M-2s/']);
  });
  it('refuses an MPD with BaseURLs of its own, with a code', () => {
    expect(() =>
      addDashSteering(mpd.replace('<Period', '<BaseURL>http://o/</BaseURL><Period'), {
        serverUri: 's',
        serviceLocation: 'a',
        baseUrl: 'b',
      }),
    ).toThrow(EthleError);
  });
});
