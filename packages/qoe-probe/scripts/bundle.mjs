#!/usr/bin/env node
// Builds dist/qoe-probe.min.js (one minified ESM file for <script type="module"> and CDNs) and
// enforces the size budget: min+gzip must stay ≤ 8 KB (8192 bytes), or the build fails. So that
// the budget stays honest, the bundle may hold the probe's own sources only: no player (hls.js,
// dash.js, Shaka) or other package pulled in by an import.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const LIMIT = 8 * 1024;
const root = new URL('..', import.meta.url).pathname;
const outfile = `${root}dist/qoe-probe.min.js`;
const result = await build({
  entryPoints: [`${root}src/index.ts`],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  sourcemap: true,
  metafile: true,
  absWorkingDir: root,
  outfile,
  logLevel: 'warning',
});
const foreign = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('src/'));
if (foreign.length > 0) {
  console.error(`qoe-probe: the bundle pulls in files beyond the probe's sources: ${foreign.join(', ')}`);
  process.exit(1);
}
const code = readFileSync(outfile);
const gz = gzipSync(code, { level: 9 }).length;
console.log(`qoe-probe: dist/qoe-probe.min.js ${code.length} B minified, ${gz} B min+gzip (limit ${LIMIT} B)`);
if (gz > LIMIT) {
  console.error(`qoe-probe: over the ${LIMIT} B min+gzip budget by ${gz - LIMIT} B`);
  process.exit(1);
}
