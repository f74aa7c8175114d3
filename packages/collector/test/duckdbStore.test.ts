import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { openDuckDbStore } from '../src/store/duckdb/openDuckDbStore.js';
import { LATEST_SCHEMA } from '../src/store/migrations.js';
import { expectMigratedFromSchema3, seedSchema3 } from './sessionTotalsCheck.js';
import { storeContract } from './storeContract.js';

const dir = mkdtempSync(join(tmpdir(), 'ethle-duckdb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('DuckDB store (a file)', () => {
  const path = join(dir, 'collector.duckdb');
  storeContract(async () => ({ store: await openDuckDbStore(path), reopen: () => openDuckDbStore(path) }));

  it('closes after the queries running when close() was called, which get their rows', async () => {
    const store = await openDuckDbStore(join(dir, 'close.duckdb'));
    const order: string[] = [];
    // Long enough (tens of ms) that close() is called while it runs.
    const q = store.all('SELECT count(*) AS n FROM range(50000000) t(i) WHERE i % 7 = 3').then((rows) => {
      order.push('query');
      return rows;
    });
    await store.close();
    order.push('closed');
    expect(await q).toEqual([{ n: 7142857 }]);
    expect(order).toEqual(['query', 'closed']);
    await expect(store.all('SELECT 1')).rejects.toMatchObject({ code: 'COLLECTOR_ERR_CLOSING' });
  });

  it('runs queries asked at once side by side, not one after another', async () => {
    const store = await openDuckDbStore(':memory:');
    try {
      // Tens of ms: the short query is asked while it runs, and (on its own reader) answers first.
      const slow = store.all('SELECT count(*) AS n FROM range(30000000) t(i) WHERE i % 7 = 3');
      const order: string[] = [];
      await Promise.all([slow.then(() => order.push('slow')), store.all('SELECT 1 AS x').then(() => order.push('short'))]);
      expect(order).toEqual(['short', 'slow']);
    } finally {
      await store.close();
    }
  });

  it('migrates a database a schema-3 collector left: its sessions get their totals from their batches', async () => {
    const path = join(dir, 'schema3.duckdb');
    const instance = await DuckDBInstance.create(path);
    const c = await instance.connect();
    await seedSchema3(async (sql, params) => {
      await c.run(sql, params as DuckDBValue[] | undefined);
    }, 'duckdb');
    c.closeSync();
    instance.closeSync();
    const store = await openDuckDbStore(path);
    try {
      await expectMigratedFromSchema3(store, LATEST_SCHEMA);
    } finally {
      await store.close();
    }
  });
});
