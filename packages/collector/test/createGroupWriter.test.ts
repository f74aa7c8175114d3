import { describe, expect, it } from 'vitest';
import type { ValidBatch } from '../src/beacon/ValidBatch.js';
import { CollectorError } from '../src/errors/CollectorError.js';
import { createGroupWriter } from '../src/store/createGroupWriter.js';
import type { Store } from '../src/store/Store.js';

/** A store that records each transaction's batches and refuses any group holding a "poison" one. */
function fakeStore(): Store & { groups: string[][]; release(): void } {
  const groups: string[][] = [];
  let gate: (() => void) | null = null;
  let first = true;
  return {
    kind: 'duckdb',
    groups,
    release: () => gate?.(),
    async writeBatches(batches: readonly ValidBatch[]) {
      // The first transaction waits until released, so the batches after it pile up.
      if (first) {
        first = false;
        await new Promise<void>((r) => (gate = r));
      }
      groups.push(batches.map((b) => b.session));
      if (batches.some((b) => b.session === 'poison')) throw new CollectorError('COLLECTOR_ERR_STORE', 'refused');
      return batches.map(() => true);
    },
    writeEdgeFacts: async () => undefined,
    all: async () => [],
    schemaVersion: async () => 1,
    close: async () => undefined,
  };
}
const b = (session: string) => ({ session }) as ValidBatch;

describe('createGroupWriter', () => {
  it('writes what piled up during a commit in the next transaction, up to the cap', async () => {
    const store = fakeStore();
    const w = createGroupWriter(store, { maxPending: 100, maxPerTransaction: 3 });
    const all = ['a', 'b', 'c', 'd', 'e', 'f'].map((s) => w.submit(b(s)));
    expect(w.pending).toBe(6);
    store.release();
    expect(await Promise.all(all)).toEqual([true, true, true, true, true, true]);
    expect(store.groups).toEqual([['a'], ['b', 'c', 'd'], ['e', 'f']]);
    expect(w.pending).toBe(0);
  });

  it('retries a failed group one batch at a time: only the refused batch fails', async () => {
    const store = fakeStore();
    const w = createGroupWriter(store, { maxPending: 100, maxPerTransaction: 10 });
    const first = w.submit(b('x'));
    const rest = ['y', 'poison', 'z'].map((s) =>
      w.submit(b(s)).then(
        () => 'ok',
        (e: CollectorError) => e.code,
      ),
    );
    store.release();
    await first;
    expect(await Promise.all(rest)).toEqual(['ok', 'COLLECTOR_ERR_STORE', 'ok']);
    expect(store.groups).toEqual([['x'], ['y', 'poison', 'z'], ['y'], ['poison'], ['z']]);
  });

  it('refuses past maxPending, busy, and takes more once the store caught up', async () => {
    const store = fakeStore();
    const w = createGroupWriter(store, { maxPending: 2, maxPerTransaction: 10 });
    const held = [w.submit(b('1')), w.submit(b('2'))];
    await expect(w.submit(b('3'))).rejects.toMatchObject({ code: 'COLLECTOR_ERR_BUSY' });
    store.release();
    await Promise.all(held);
    await expect(w.submit(b('4'))).resolves.toBe(true);
    await w.drain();
  });

  it('starts a transaction at most every minIntervalMs: what arrives meanwhile goes in one, an idle writer writes at once', async () => {
    const starts: number[] = [];
    const groups: string[][] = [];
    const store: Store = {
      ...fakeStore(),
      async writeBatches(batches: readonly ValidBatch[]) {
        starts.push(performance.now());
        groups.push(batches.map((x) => x.session));
        return batches.map(() => true);
      },
    };
    const w = createGroupWriter(store, { maxPending: 100, maxPerTransaction: 10, minIntervalMs: 60 });
    const t0 = performance.now();
    await w.submit(b('a'));
    // Idle before: written without waiting for the interval.
    expect(starts[0]! - t0).toBeLessThan(60);
    // Submitted right after the first was answered: they wait for the next start, 60 ms after the
    // first one's, and go in it together.
    const rest = ['b', 'c', 'd'].map((s) => w.submit(b(s)));
    expect(await Promise.all(rest)).toEqual([true, true, true]);
    expect(groups).toEqual([['a'], ['b', 'c', 'd']]);
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(59);
    await w.drain();
  });
});
