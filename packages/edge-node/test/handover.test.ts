import { streamTag, verifySessionToken } from '@ethle/core';
import { startOrigin, type LiveOrigin } from '@ethle/live-origin';
import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createEdgeConfig, startEdge, type RunningEdge } from '../src/index.js';
import { SessionTokens } from '../src/fleet/SessionTokens.js';
import { startTestOrigin, type TestOrigin } from './helpers/startTestOrigin.js';
import { freePort } from './helpers/freePort.js';

// Issue 21, portable sessions: a receiver handed from edge A to edge B of one fleet (same secret)
// keeps its session — its id, its policy group, the x it was served and its request count — by
// the signed token A put in the URLs it served. A forged or expired token is a fresh session.
const SECRET = 'fleet-secret-for-the-handover-test';
const mac = (data: Uint8Array) => createHmac('sha256', SECRET).update(data).digest();
let origin: TestOrigin | undefined;
let live: LiveOrigin | undefined;
const edges: RunningEdge[] = [];
afterEach(async () => {
  for (const e of edges.splice(0)) await e.close();
  await origin?.close();
  await live?.close();
  origin = live = undefined;
});

const get = async (url: string) => {
  const r = await request(url);
  return { status: r.statusCode, headers: r.headers as Record<string, string>, text: await r.body.text() };
};
const claimsOf = async (token: string) => {
  const r = await verifySessionToken(token, mac, 0);
  if (!r.ok) throw new Error(`token did not verify: ${r.reason}`);
  return r.claims;
};

describe('handover between edges of a fleet (HLS)', () => {
  it('a receiver moved from A to B keeps its id, group, x and request count; a forged or expired token starts fresh', async () => {
    origin = await startTestOrigin({ variantBandwidth: 4_000_000, bitrateKbps: 4000, segmentBytes: 500_000, window: 8 });
    origin.produce(8);
    // Auto hold on both, same backhaul; A believes its receivers' radio slow (hold-x), B fast (hold-0).
    // Loopback with a told backhaul RTT: the paper's model, pinned (the default learns from the
    // origin's fetches, and loopback delivers like an origin that keeps its window).
    const edge = (defaultRanMbps: number) =>
      startEdge(
        createEdgeConfig({
          origin: origin!.url,
          port: 0,
          hold: 'auto',
          backhaulRttMs: 150,
          segmentStart: 'slow-start',
          defaultRanMbps,
          logLevel: 'silent',
          originProbeMs: 0,
          sessionTokens: { secret: SECRET },
        }),
      );
    const a = await edge(5);
    const b = await edge(1000);
    edges.push(a, b);
    const adopted: Array<{ session: string; x: number; requests: number; group: string | undefined }> = [];
    b.events.on('session-adopted', (e) => adopted.push(e));

    // At A: the multivariant playlist's variant URI carries a signed token naming the session.
    const mv = await get(`${a.url}/live/master.m3u8`);
    const variant = /^(a\/index\.m3u8\?ethle_session=(e1\.[^\s]+))$/m.exec(mv.text);
    expect(variant, mv.text).not.toBeNull();
    const sid = (await claimsOf(variant![2]!)).sid;
    let token = '';
    let xA = -1;
    for (let i = 0; i < 3; i++) {
      const r = await get(`${a.url}/live/${variant![1]}`);
      expect(r.headers['x-ethle-session']).toBe(sid);
      token = r.headers['x-ethle-session-token']!;
      xA = Number(r.headers['x-ethle-hold-segments']);
    }
    const atA = await claimsOf(token);
    expect(atA).toMatchObject({ sid, stream: streamTag(`origin/live/a/index.m3u8`), group: 'hold-x', x: xA, requests: 3 });
    expect(xA).toBeGreaterThan(0);

    // A receiver new to B is hold-0 there (x = 0): B's own decision.
    const fresh = await get(`${b.url}/live/a/index.m3u8`);
    expect(fresh.headers['x-ethle-hold-segments']).toBe('0');

    // The moved receiver: same id, still hold-x (monotone across edges), served A's x, 4th request.
    const moved = await get(`${b.url}/live/a/index.m3u8?ethle_session=${token}`);
    expect(moved.status).toBe(200);
    expect(moved.headers['x-ethle-session']).toBe(sid);
    expect(Number(moved.headers['x-ethle-hold-segments'])).toBe(xA);
    expect(adopted).toEqual([{ session: sid, stream: 'origin/live/a/index.m3u8', from: '', group: 'hold-x', x: xA, requests: 3 }]);
    expect(await claimsOf(moved.headers['x-ethle-session-token']!)).toMatchObject({ sid, group: 'hold-x', x: xA, requests: 4 });
    // The held playlist at B ends where A's did: no jump.
    const lastUri = (t: string) =>
      t
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('#'))
        .pop();
    expect(lastUri(moved.text)).toBe(lastUri((await get(`${a.url}/live/${variant![1]}`)).text));

    // A forged token (payload edited, MAC kept): ignored, a fresh session, not an error.
    const [v, payload, m] = token.split('.') as [string, string, string];
    const edited = Buffer.from(Buffer.from(payload, 'base64url').toString('latin1').replace('"g":1', '"g":0'), 'latin1').toString(
      'base64url',
    );
    const forged = await get(`${b.url}/live/a/index.m3u8?ethle_session=${v}.${edited}.${m}`);
    expect(forged.status).toBe(200);
    expect(forged.headers['x-ethle-session']).not.toBe(sid);
    expect(forged.headers['x-ethle-hold-segments']).toBe('0');
    // An expired token of the fleet: its state is not adopted.
    const stale = await new SessionTokens({ secret: SECRET, ttlSeconds: 10, issuer: 'edge-a', maxEntries: 10 }).sign(
      { ...atA, sid: 'old-receiver' },
      Date.now() - 60_000,
    );
    const expired = await get(`${b.url}/live/a/index.m3u8?ethle_session=${stale}`);
    expect(expired.status).toBe(200);
    expect(expired.headers['x-ethle-hold-segments']).toBe('0');
    expect(adopted).toHaveLength(1);
  });
});

describe('handover from a live peer (HLS, the token of the multivariant playlist)', () => {
  it("B asks A, which issued the token, for the session's state; a dead A means a fresh session with the same id", async () => {
    origin = await startTestOrigin({ variantBandwidth: 4_000_000, bitrateKbps: 4000, segmentBytes: 500_000, window: 8 });
    origin.produce(8);
    const [pa, pb] = [await freePort(), await freePort()];
    const urlA = `http://127.0.0.1:${pa}`;
    const urlB = `http://127.0.0.1:${pb}`;
    const edge = (port: number, pathway: string, url: string, peer: string, peerUrl: string, defaultRanMbps: number) =>
      startEdge(
        createEdgeConfig({
          origin: origin!.url,
          port,
          hold: 'auto',
          backhaulRttMs: 150,
          segmentStart: 'slow-start',
          defaultRanMbps,
          logLevel: 'silent',
          originProbeMs: 0,
          sessionTokens: { secret: SECRET },
          fleet: { pathway, publicUrl: url, peers: [{ id: peer, url: peerUrl }] },
        }),
      );
    const a = await edge(pa, 'edge-a', urlA, 'edge-b', urlB, 5);
    const b = await edge(pb, 'edge-b', urlB, 'edge-a', urlA, 1000);
    edges.push(a, b);
    const adopted: Array<{ from: string; x: number; requests: number }> = [];
    b.events.on('session-adopted', (e) => adopted.push(e));

    // Like hls.js: the variant URI of the first multivariant playlist, reloaded as it is.
    const mv = await get(`${urlA}/live/master.m3u8`);
    const variant = /^a\/index\.m3u8\?ethle_session=e1\.[^\s]+$/m.exec(mv.text)![0];
    let xA = -1;
    for (let i = 0; i < 3; i++) xA = Number((await get(`${urlA}/live/${variant}`)).headers['x-ethle-hold-segments']);
    expect(xA).toBeGreaterThan(0);
    const moved = await get(`${urlB}/live/${variant}`);
    expect(Number(moved.headers['x-ethle-hold-segments'])).toBe(xA);
    expect(adopted).toEqual([expect.objectContaining({ from: 'edge-a', x: xA, requests: 3 })]);

    // Another receiver of A, A gone before it moves: same id at B, state fresh (B's own x = 0).
    const mv2 = await get(`${urlA}/live/master.m3u8`);
    const variant2 = /^a\/index\.m3u8\?ethle_session=e1\.[^\s]+$/m.exec(mv2.text)![0];
    const sid2 = (await get(`${urlA}/live/${variant2}`)).headers['x-ethle-session'];
    await a.close();
    edges.splice(edges.indexOf(a), 1);
    const failed = await get(`${urlB}/live/${variant2}`);
    expect(failed.status).toBe(200);
    expect(failed.headers['x-ethle-session']).toBe(sid2);
    expect(failed.headers['x-ethle-hold-segments']).toBe('0');
    expect(adopted).toHaveLength(1);
  });
});

// Issue 36, minor: /_ethle/session turned an expired token into a fresh one — a token leaked
// once was good for ever, one export at a time.
describe('the session export', () => {
  it('answers a live token of a session it knows with a fresh token, and an expired one with 404', async () => {
    origin = await startTestOrigin({ variantBandwidth: 4_000_000, bitrateKbps: 4000, segmentBytes: 500_000, window: 8 });
    origin.produce(8);
    const a = await startEdge(
      createEdgeConfig({
        origin: origin.url,
        port: 0,
        hold: 1,
        logLevel: 'silent',
        originProbeMs: 0,
        sessionTokens: { secret: SECRET },
        fleet: { pathway: 'edge-a', publicUrl: 'http://127.0.0.1:1' },
      }),
    );
    edges.push(a);
    const mv = await get(`${a.url}/live/master.m3u8`);
    const variant = /^a\/index\.m3u8\?ethle_session=(e1\.[^\s]+)$/m.exec(mv.text)!;
    const r = await get(`${a.url}/live/${variant[0]}`);
    const live = r.headers['x-ethle-session-token']!;
    const claims = await claimsOf(live);
    const exportOf = (token: string) => get(`${a.url}/_ethle/session?stream=${claims.stream}&ethle_session=${encodeURIComponent(token)}`);
    const fresh = await exportOf(live);
    expect(fresh.status).toBe(200);
    expect((await claimsOf(fresh.text.trim())).sid).toBe(claims.sid);
    // The same session, in a token of the fleet that expired a minute ago.
    const expired = await new SessionTokens({ secret: SECRET, ttlSeconds: 10, issuer: 'edge-a', maxEntries: 10 }).sign(
      { ...claims },
      Date.now() - 60_000,
    );
    expect((await exportOf(expired)).status).toBe(404);
  });
});

describe('handover between edges of a fleet (DASH)', () => {
  it("the MPD Location names this edge with the receiver's token; the next edge adopts it", async () => {
    live = await startOrigin({ port: 0 });
    const edge = (pathway: string, defaultRanMbps: number, peer: string) =>
      startEdge(
        createEdgeConfig({
          origin: live!.url,
          port: 0,
          hold: 'auto',
          backhaulRttMs: 150,
          segmentStart: 'slow-start',
          defaultRanMbps,
          logLevel: 'silent',
          originProbeMs: 0,
          sessionTokens: { secret: SECRET },
          fleet: { pathway, publicUrl: `http://${pathway}.example`, peers: [{ id: peer, url: `http://${peer}.example` }] },
        }),
      );
    const a = await edge('edge-a', 3, 'edge-b');
    const b = await edge('edge-b', 1000, 'edge-a');
    edges.push(a, b);
    const path = '/live/2M-2s/manifest.mpd';
    let r = await get(`${a.url}${path}`);
    for (let i = 0; i < 2; i++) {
      const loc = /<Location serviceLocation="edge-a">([^<]+)<\/Location>/.exec(r.text);
      expect(loc, r.text.slice(0, 600)).not.toBeNull();
      r = await get(`${a.url}${new URL(loc![1]!.replace(/&amp;/g, '&')).pathname}${new URL(loc![1]!).search}`);
    }
    const loc = new URL(/<Location serviceLocation="edge-a">([^<]+)<\/Location>/.exec(r.text)![1]!);
    const token = loc.searchParams.get('ethle_session')!;
    const atA = await claimsOf(token);
    expect(atA).toMatchObject({ group: 'hold-x', requests: 3, issuer: 'edge-a' });
    // dash.js steered to B refreshes from B's Location (written out: a Location dash.js clones
    // keeps only the path), which carries the same token: B goes on with the session.
    const locB = new URL(/<Location serviceLocation="edge-b">([^<]+)<\/Location>/.exec(r.text)![1]!);
    expect(locB.origin).toBe('http://edge-b.example');
    expect(locB.pathname).toBe(loc.pathname);
    expect(locB.searchParams.get('ethle_session')).toBe(token);
    const atB = await get(`${b.url}${locB.pathname}${locB.search}`);
    expect(atB.headers['x-ethle-session']).toBe(atA.sid);
    expect(Number(atB.headers['x-ethle-hold-segments'])).toBe(atA.x);
    expect(await claimsOf(atB.headers['x-ethle-session-token']!)).toMatchObject({ group: 'hold-x', requests: 4, issuer: 'edge-b' });
  });
});
