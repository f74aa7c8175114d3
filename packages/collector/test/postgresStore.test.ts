import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { LATEST_SCHEMA } from '../src/store/migrations.js';
import { openPostgresStore } from '../src/store/postgres/openPostgresStore.js';
import type { SqlValue } from '../src/store/Store.js';
import { expectMigratedFromSchema3, seedSchema3 } from './sessionTotalsCheck.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from './startThrowawayPostgres.js';
import { storeContract } from './storeContract.js';

// The same contract as DuckDB's, on a PostgreSQL cluster this test starts for itself (initdb +
// pg_ctl in a temp dir). Without the binaries (Debian: apt-get install postgresql) it is skipped,
// and says so.
let server: ThrowawayPostgres | null = null;
afterAll(async () => {
  await server?.stop();
});

describe('PostgreSQL store (a throwaway cluster)', () => {
  storeContract(async () => {
    server = await startThrowawayPostgres();
    if (server === null) {
      console.warn('postgresStore.test: SKIPPED — no initdb/pg_ctl (apt-get install postgresql; .ci/run installs it)');
      return null;
    }
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE collector_contract');
    await admin.end();
    const url = server.url.replace(/\/postgres$/, '/collector_contract');
    return { store: await openPostgresStore(url, 4), reopen: () => openPostgresStore(url, 4) };
  });

  it('migrates a database a schema-3 collector left: its sessions get their totals from their batches', async (ctx) => {
    if (server === null) ctx.skip();
    const admin = new pg.Client({ connectionString: server!.url });
    await admin.connect();
    await admin.query('CREATE DATABASE collector_schema3');
    await admin.end();
    const url = server!.url.replace(/\/postgres$/, '/collector_schema3');
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await seedSchema3(async (sql: string, params?: SqlValue[]) => {
        await c.query(sql, params);
      }, 'postgres');
    } finally {
      await c.end();
    }
    const store = await openPostgresStore(url, 2);
    try {
      await expectMigratedFromSchema3(store, LATEST_SCHEMA);
    } finally {
      await store.close();
    }
  });
});
