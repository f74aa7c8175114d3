import { describe, expect, it } from 'vitest';
import {
  EthleError,
  fromBase64url,
  createHoldPolicy,
  PolicyGroups,
  SESSION_TOKEN_MAX_LENGTH,
  signSessionToken,
  streamTag,
  toBase64url,
  verifySessionToken,
  type SessionClaims,
  type SessionMac,
} from '../../src/index.js';

// The MAC is injected: here WebCrypto's HMAC-SHA256 (what a service worker has), async.
const webCryptoMac = async (secret: string): Promise<SessionMac> => {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return async (data) => new Uint8Array(await crypto.subtle.sign('HMAC', key, new Uint8Array(data)));
};

const claims: SessionClaims = {
  sid: 'k3Jq9fX2',
  stream: streamTag('origin/live/a/index.m3u8'),
  group: 'hold-x',
  x: 3,
  requests: 12,
  radioBps: 8_500_000,
  issuer: 'edge-a',
  expiresAt: 2_000_000_000,
};

describe('session tokens', () => {
  it('round-trip: what is signed is what verifies, and the token is URL-safe and bounded', async () => {
    const mac = await webCryptoMac('fleet secret of sixteen+');
    const token = await signSessionToken(claims, mac);
    expect(token).toMatch(/^e1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(token.length).toBeLessThanOrEqual(SESSION_TOKEN_MAX_LENGTH);
    expect(await verifySessionToken(token, mac, 1_900_000_000)).toEqual({ ok: true, claims, expired: false });
  });

  it('another secret, a changed payload or a changed MAC do not verify', async () => {
    const mac = await webCryptoMac('fleet secret of sixteen+');
    const token = await signSessionToken(claims, mac);
    expect(await verifySessionToken(token, await webCryptoMac('another secret, 16+ chars'), 0)).toEqual({
      ok: false,
      reason: 'bad-signature',
    });
    // A receiver that rewrites its group to hold-0 (or its x) in the payload: the MAC no longer fits.
    const [v, payload, m] = token.split('.') as [string, string, string];
    const forged = JSON.parse(String.fromCharCode(...fromBase64url(payload)!)) as Record<string, unknown>;
    forged.g = 0;
    const forgedPayload = toBase64url(Uint8Array.from(JSON.stringify(forged), (c) => c.charCodeAt(0)));
    expect(await verifySessionToken(`${v}.${forgedPayload}.${m}`, mac, 0)).toEqual({ ok: false, reason: 'bad-signature' });
    const flipped = m.slice(0, -2) + (m.endsWith('AA') ? 'AB' : 'AA');
    expect((await verifySessionToken(`${v}.${payload}.${flipped}`, mac, 0)).ok).toBe(false);
    expect(await verifySessionToken('not-a-token', mac, 0)).toEqual({ ok: false, reason: 'malformed' });
    expect(await verifySessionToken(`e1.${'A'.repeat(500)}.AAAA`, mac, 0)).toEqual({ ok: false, reason: 'too-long' });
  });

  it('expiry is reported, not hidden: the sid is still the session, its state is not for adoption', async () => {
    const mac = await webCryptoMac('fleet secret of sixteen+');
    const token = await signSessionToken({ ...claims, expiresAt: 1000 }, mac);
    const r = await verifySessionToken(token, mac, 1000);
    expect(r.ok && r.expired).toBe(true);
  });

  it('refuses claims that cannot travel in a URL', async () => {
    const mac = () => new Uint8Array(32);
    await expect(signSessionToken({ ...claims, sid: 'has space' }, mac)).rejects.toBeInstanceOf(EthleError);
    await expect(signSessionToken({ ...claims, x: 101 }, mac)).rejects.toThrow(/x must be/);
    await expect(signSessionToken({ ...claims, sid: 'é' }, mac)).rejects.toThrow(/sid/);
  });

  it('base64url agrees with the platform for every length', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      expect(toBase64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      expect(fromBase64url(toBase64url(bytes))).toEqual(bytes);
    }
    expect(fromBase64url('a+b/')).toBeUndefined();
  });
});

describe('adopting a handed-over session', () => {
  const estimate = {
    bps: 4e6,
    source: 'measured' as const,
    evidence: {
      rniBps: undefined,
      measuredBps: 4e6,
      measuredBytes: 1e6,
      segmentBytes: 5e5,
      mtpKbps: undefined,
      blMs: undefined,
      segmentsDownloaded: 3,
      skipped: [],
    },
  };

  it('files the group, requests and floor; a known session is not overwritten', () => {
    const g = new PolicyGroups(60_000);
    expect(g.adopt('s', 'r1', { group: 'hold-x', requests: 7, estimate, x: 3 }, 0)).toBe(true);
    expect(g.counts('s')).toEqual({ 'hold-0': 0, 'hold-x': 1 });
    expect(g.stateOf('s', 'r1')).toEqual({ group: 'hold-x', requests: 7, estimate, floorX: 3 });
    // Monotone across edges: a hold-x receiver whose eq. 1 now holds stays hold-x.
    expect(g.assign('s', 'r1', true, 10)).toEqual({ group: 'hold-x', from: 'hold-x' });
    expect(g.note('s', 'r1', estimate, 10).requests).toBe(8);
    expect(g.adopt('s', 'r1', { group: 'hold-0', requests: 0, estimate: undefined, x: 0 }, 20)).toBe(false);
    expect(g.groupOf('s', 'r1')).toBe('hold-x');
  });

  it('a hold-x receiver is never served less than the x it had at its previous edge', () => {
    const p = createHoldPolicy({ hold: 'auto', maxHold: 4, initialWindow: 10, defaultRanMbps: 100, ranFailAction: 'redirect' });
    // A short backhaul: this edge's own x for the stream is small.
    const ctx = { stream: 's', origin: 'o', segmentBytes: 250_000, segmentSeconds: 2, rttMs: 1 };
    const slow = { ...estimate, bps: 1e6 };
    const fresh = p.receiver(ctx, 'new', slow, 0);
    expect(fresh?.kind).toBe('hold');
    const own = fresh!.kind === 'hold' ? fresh!.x : -1;
    p.adopt('s', 'moved', { group: 'hold-x', requests: 5, estimate: slow, x: own + 2 }, 0);
    const d = p.receiver(ctx, 'moved', slow, 1);
    expect(d).toMatchObject({ kind: 'hold', x: own + 2, group: 'hold-x' });
    // Capped by this edge's maxHold.
    p.adopt('s', 'far', { group: 'hold-x', requests: 5, estimate: slow, x: 50 }, 0);
    expect(p.receiver(ctx, 'far', slow, 1)).toMatchObject({ x: 4 });
  });
});
