import type { StoreConfig } from '../config/CollectorConfig.js';
import { openDuckDbStore } from './duckdb/openDuckDbStore.js';
import { openPostgresStore } from './postgres/openPostgresStore.js';
import type { Store } from './Store.js';

/** Opens the configured store and brings its schema up to date (numbered migrations). */
export function openStore(config: StoreConfig): Promise<Store> {
  return config.kind === 'duckdb' ? openDuckDbStore(config.path) : openPostgresStore(config.url, config.poolSize);
}
