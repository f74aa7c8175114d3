#!/usr/bin/env node
// Bundles the service worker (with @ethle/core and Workbox) into the demo's public folder, where
// the demo server serves it at /ethle-sw.js (scope "/"), and prints its size.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';

const out = new URL('../../player-demo/public/ethle-sw.js', import.meta.url).pathname;
await build({
  entryPoints: [new URL('../src/sw.ts', import.meta.url).pathname],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2022',
  conditions: ['source'],
  define: { 'process.env.NODE_ENV': '"production"' },
  outfile: out,
  logLevel: 'warning',
});
const code = readFileSync(out);
console.log(`ethle-sw.js: ${(code.length / 1024).toFixed(1)} KB min, ${(gzipSync(code).length / 1024).toFixed(1)} KB min+gzip`);
