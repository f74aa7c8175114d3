#!/usr/bin/env node
// Origin memory under load: serves the largest segments (50M-10s, 61.1 MB) many times over to
// concurrent clients in another process (curl) and prints the origin's RSS before, during and after.
// Run: node packages/live-origin/bench/serveRss.mjs [rounds=30] [concurrency=4]   (after npm install)
import { spawn, execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);
const rounds = Number(process.argv[2] ?? 30);
const concurrency = Number(process.argv[3] ?? 4);
const bin = new URL('../bin/ethle-origin.js', import.meta.url).pathname;
const origin = spawn(process.execPath, [bin, '--port', '18999', '--streams', '50M-10s,2M-2s'], { stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise((r) => origin.stdout.once('data', r));
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${origin.pid}/status`, 'utf8'))[1]) / 1024;
const base = 'http://127.0.0.1:18999';

const playlist = await (await fetch(`${base}/live/50M-10s/index.m3u8`)).text();
const segs = [...playlist.matchAll(/^(\d+)\.m4s$/gm)].map((m) => m[1]);
const before = rss();
let peak = before;
const t0 = performance.now();
let bytes = 0;
for (let r = 0; r < rounds; r++) {
  const batch = Array.from({ length: concurrency }, (_, i) => `${base}/live/50M-10s/${segs[(r * concurrency + i) % segs.length]}.m4s`);
  const outs = await Promise.all(batch.map((u) => run('curl', ['-s', '-o', '/dev/null', '-w', '%{size_download}', u])));
  bytes += outs.reduce((a, o) => a + Number(o.stdout), 0);
  peak = Math.max(peak, rss());
}
const secs = (performance.now() - t0) / 1000;
const after = rss();
origin.kill('SIGTERM');
console.log(
  `served ${rounds * concurrency} × 61.1 MB segments (${(bytes / 1e9).toFixed(2)} GB) in ${secs.toFixed(1)} s = ${((bytes * 8) / secs / 1e9).toFixed(2)} Gbit/s`,
);
console.log(`origin RSS: before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, after ${after.toFixed(0)} MB`);
