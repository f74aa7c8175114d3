import { describe, expect, it } from 'vitest';
import { SessionTokens } from '../../src/fleet/SessionTokens.js';
import { readSessionToken } from '../../src/handlers/manifest/readSessionToken.js';

const q = (token?: string) => new URLSearchParams(token === undefined ? '' : { ethle_session: token });
const tokens = () => new SessionTokens({ secret: 'fleet-secret', ttlSeconds: 60, issuer: 'edge-a', maxEntries: 8 });
const NOW = 1_800_000_000_000;

describe('readSessionToken', () => {
  it('no parameter, a plain id, and a malformed one: answered at once', () => {
    expect(readSessionToken(q(), undefined, NOW)).toEqual({ param: null, sid: undefined, handed: undefined, issuer: undefined });
    expect(readSessionToken(q('abc_DEF-1'), undefined, NOW)).toMatchObject({ sid: 'abc_DEF-1', handed: undefined });
    expect(readSessionToken(q('a b'), undefined, NOW)).toMatchObject({ param: 'a b', sid: undefined });
    // Without a fleet secret a signed-looking token is not a plain id either ('.' is not allowed).
    expect(readSessionToken(q('e1.x.y'), undefined, NOW)).toMatchObject({ sid: undefined });
  });

  it('a signed token: checked once (a promise), then answered without awaiting on every reload', async () => {
    const t = tokens();
    const token = await t.sign({ sid: 'viewer-1', stream: 'abcd0123', group: 'hold-x', x: 2, requests: 3, radioBps: 5e6 }, NOW);
    const first = readSessionToken(q(token), t, NOW);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toMatchObject({
      param: token,
      sid: 'viewer-1',
      issuer: 'edge-a',
      handed: { stream: 'abcd0123', x: 2, requests: 3 },
    });
    const reload = readSessionToken(q(token), t, NOW + 1000);
    expect(reload).not.toBeInstanceOf(Promise);
    expect(reload).toMatchObject({ sid: 'viewer-1', handed: { group: 'hold-x' } });
  });

  it('a forged token is a fresh session, never an error; remembered as such', async () => {
    const t = tokens();
    const forged = `${await t.sign({ sid: 'viewer-1', stream: '', group: undefined, x: 0, requests: 0, radioBps: undefined }, NOW)}x`;
    expect(await readSessionToken(q(forged), t, NOW)).toMatchObject({ sid: undefined, handed: undefined, issuer: undefined });
    expect(readSessionToken(q(forged), t, NOW)).toMatchObject({ sid: undefined });
  });
});
