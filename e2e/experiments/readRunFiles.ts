import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The files a result directory holds besides its runs (the teardown's summary and Table III). */
const NOT_RUNS = new Set(['summary.json', 'tableIII.json']);

/** Every run file of a result directory, parsed (merge, compareReceivers and scaleReport read them alike). */
export function readRunFiles<T>(dir: string): T[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !NOT_RUNS.has(f))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as T);
}
