import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { openDuckDbStore } from '../src/store/duckdb/openDuckDbStore.js';
import { storeContract } from './storeContract.js';

const dir = mkdtempSync(join(tmpdir(), 'ethle-duckdb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('DuckDB store (a file)', () => {
  const path = join(dir, 'collector.duckdb');
  storeContract(async () => ({ store: await openDuckDbStore(path), reopen: () => openDuckDbStore(path) }));
});
