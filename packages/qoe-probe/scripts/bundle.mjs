#!/usr/bin/env node
// Builds dist/qoe-probe.min.js (one minified ESM file for <script type="module"> and CDNs) and
// enforces the size budget: min+gzip must stay ≤ 8 KB (8192 bytes), or the build fails.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const LIMIT = 8 * 1024;
const root = new URL('..', import.meta.url).pathname;
const outfile = `${root}dist/qoe-probe.min.js`;
await build({
  entryPoints: [`${root}src/index.ts`],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  platform: 'browser',
  sourcemap: true,
  outfile,
  logLevel: 'warning',
});
const code = readFileSync(outfile);
const gz = gzipSync(code, { level: 9 }).length;
console.log(`qoe-probe: dist/qoe-probe.min.js ${code.length} B minified, ${gz} B min+gzip (limit ${LIMIT} B)`);
if (gz > LIMIT) {
  console.error(`qoe-probe: over the ${LIMIT} B min+gzip budget by ${gz - LIMIT} B`);
  process.exit(1);
}
