import { describe, expect, it } from 'vitest';
import { CONFIRM_AFTER_MS, PolicyGroups } from '../../src/index.js';

// Issue 36, minor: 100,000 made-up session ids (one request each) made the receiver count say
// 100,000 and pushed every real viewer's session out of the table (least recently seen first).
describe('PolicyGroups under a session flood', () => {
  it('sessions seen again a reload later are confirmed; one-shot ids churn among themselves and never push them out', () => {
    const t = new PolicyGroups(120_000, 400);
    let now = 0;
    // 60 players join at once (fewer than a quarter of the table): a request, another a reload later.
    for (let i = 0; i < 60; i++) t.assign('s', `player-${i}`, i % 2 === 0, now);
    now += CONFIRM_AFTER_MS;
    for (let i = 0; i < 60; i++) t.assign('s', `player-${i}`, i % 2 === 0, now);
    expect(t.confirmedCounts('s')).toEqual({ 'hold-0': 30, 'hold-x': 30 });
    // 10,000 ids, one request each, over 5 s.
    for (let i = 0; i < 10_000; i++) t.assign('s', `junk-${i}`, true, now + i / 2);
    expect(t.size).toBeLessThanOrEqual(400);
    expect(t.unconfirmed).toBe(100);
    expect(t.confirmedCounts('s')).toEqual({ 'hold-0': 30, 'hold-x': 30 });
    for (let i = 0; i < 60; i++) expect(t.groupOf('s', `player-${i}`), `player-${i}`).toBe(i % 2 === 0 ? 'hold-0' : 'hold-x');
    // The policy still sees every session it holds; operators see receivers.
    expect(t.counts('s')['hold-0']).toBe(30 + 100);
  });

  it('two requests within CONFIRM_AFTER_MS do not confirm; a handed-over session is confirmed at once', () => {
    const t = new PolicyGroups(120_000, 100);
    t.assign('s', 'a', true, 0);
    t.assign('s', 'a', true, CONFIRM_AFTER_MS - 1);
    expect(t.confirmedCounts('s')['hold-0']).toBe(0);
    t.assign('s', 'a', true, CONFIRM_AFTER_MS);
    expect(t.confirmedCounts('s')['hold-0']).toBe(1);
    t.adopt('s', 'b', { group: 'hold-x', requests: 5, estimate: undefined, x: 2 }, 0);
    expect(t.confirmedCounts('s')).toEqual({ 'hold-0': 1, 'hold-x': 1 });
    expect(t.unconfirmed).toBe(0);
  });

  it('confirmed sessions beyond three quarters of maxSessions give way to new ones, least recently seen first; sweeping empties both', () => {
    const t = new PolicyGroups(1_000, 8);
    for (let i = 0; i < 8; i++) {
      t.assign('s', `p${i}`, true, i);
      t.assign('s', `p${i}`, true, i + CONFIRM_AFTER_MS);
    }
    expect(t.size).toBe(8);
    t.assign('s', 'new', true, 600);
    expect(t.size).toBe(8);
    expect(t.groupOf('s', 'p0')).toBeUndefined();
    expect(t.groupOf('s', 'new')).toBe('hold-0');
    t.sweep(10_000);
    expect(t.size).toBe(0);
    expect(t.confirmedCounts('s')).toEqual({ 'hold-0': 0, 'hold-x': 0 });
  });
});
