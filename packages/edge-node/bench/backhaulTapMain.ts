// `backhaulTapMain.ts ORIGIN_URL`: the backhaul tap (backhaulTap.ts) in a process of its own, so
// the soak's receivers cannot slow the edge's backhaul down. Prints `listening on TAP_URL` and
// `bytes on STATS_URL` (GET: the origin's bytes through the tap so far, as text).
import { createServer } from 'node:http';
import { startBackhaulTap } from './backhaulTap.js';

const originUrl = process.argv[2];
if (originUrl === undefined) {
  console.error('usage: backhaulTapMain ORIGIN_URL');
  process.exit(2);
}
const tap = await startBackhaulTap(originUrl);
const stats = createServer((_req, res) => res.end(String(tap.down)));
await new Promise<void>((resolve) => stats.listen(0, '127.0.0.1', resolve));
const addr = stats.address();
console.log(`bytes on http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : 0}/`);
console.log(`listening on ${tap.url}`);
process.once('SIGTERM', () => {
  stats.close();
  void tap.close().then(() => process.exit(0));
});
