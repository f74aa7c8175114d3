#!/usr/bin/env node
// `npm start` — the README's main job: the live origin, the ETHLE edge in front of it, the QoE
// collector (DuckDB in a data directory) and the demo (players side by side + dashboard + the
// service-worker edge), whose probes send their beacons to the collector. Ctrl-C stops everything.
// Options: `npm start -- --help` (scripts/parseStartArgs.mjs). A user's mistake — a bad flag, a
// port in use — is one line on stderr and exit 2, never a stack trace.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseStartArgs, START_HELP, StartError } from './parseStartArgs.mjs';

const root = new URL('..', import.meta.url).pathname;

// A fresh clone after `npm install` is built (root "prepare"); build again only if something is missing.
const built = [
  'packages/live-origin/dist/index.js',
  'packages/edge-node/dist/index.js',
  'packages/collector/dist/index.js',
  'packages/player-demo/dist/index.html',
];
if (!built.every((f) => existsSync(`${root}${f}`))) {
  console.log('building…');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}

const { startOrigin, DEFAULT_STREAMS } = await import('@ethle/live-origin');
const { startEdge, createEdgeConfig, isEdgeError } = await import('@ethle/edge-node');
const { startCollector, createCollectorConfig, isCollectorError } = await import('@ethle/collector');
const { startDemoServer } = await import('../packages/player-demo/server/startDemoServer.mjs');

const started = [];
function fail(e) {
  if (e instanceof StartError || (isEdgeError(e) && e.code.startsWith('ERR_EDGE_CONFIG'))) {
    const hint = e.code === 'ERR_START_USAGE' ? ' (npm start -- --help lists the options)' : '';
    console.error(`npm start: ${e instanceof StartError ? `${e.code}: ` : ''}${e.message}${hint}`);
    void Promise.allSettled(started.map((s) => s.close())).then(() => process.exit(2));
    return;
  }
  throw e;
}

/** Starts one server; a listen error names the flag that changes its port. */
async function listen(flag, host, port, start) {
  try {
    const s = await start();
    started.push(s);
    return s;
  } catch (e) {
    if (e?.code === 'EADDRINUSE')
      throw new StartError(
        'ERR_START_PORT_IN_USE',
        `port ${port} on ${host} is in use; choose another with --${flag} N (0 = any free port)`,
      );
    if (e?.code === 'EACCES')
      throw new StartError(
        'ERR_START_LISTEN',
        `not allowed to listen on port ${port}; choose another with --${flag} N (0 = any free port)`,
      );
    if (e?.code === 'EADDRNOTAVAIL' || e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN')
      throw new StartError('ERR_START_LISTEN', `cannot listen on ${host} (${e.code}); give a local address with --host`);
    throw e;
  }
}

try {
  // The origin serves exactly the streams --stream is checked against.
  const o = parseStartArgs(process.argv.slice(2), { streams: DEFAULT_STREAMS });
  if (o.help) {
    process.stdout.write(START_HELP.replace('STREAMS', DEFAULT_STREAMS.join(', ')));
    process.exit(0);
  }
  let origin, edge, network;
  // Checked before anything starts: the emulated network needs namespaces and TUN devices.
  if (o.backhaulMs !== undefined && process.getuid?.() !== 0)
    throw new StartError(
      'ERR_START_NEEDS_ROOT',
      `--backhaul needs root (network namespaces, TUN devices): sudo npm start -- --backhaul ${o.backhaulMs}; without root, the side-by-side page's "origin outage" button shows what the edge buys`,
    );
  // The collector's data stays across runs (gitignored), so the fleet view keeps earlier sessions.
  const dataDir = resolve(o.dataDir ?? join(root, '.ethle-data'));
  const dbFile = join(dataDir, 'collector.duckdb');
  // The emulated network's edge runs in a namespace: its log (and the relays' counters at the end) go here.
  const networkLog = join(dataDir, 'network.log');
  const shown = (f) => (relative(process.cwd(), f).startsWith('..') ? f : relative(process.cwd(), f));
  const collector = await listen('collector-port', o.host, o.ports.collector, async () => {
    try {
      return await startCollector(createCollectorConfig({ host: o.host, port: o.ports.collector, store: { duckdb: dbFile } }));
    } catch (e) {
      if (isCollectorError(e) && e.code === 'COLLECTOR_ERR_OPEN')
        throw new StartError(
          'ERR_START_DATA_IN_USE',
          `${e.message}; another npm start may be running: stop it, or give another --data-dir`,
        );
      throw e;
    }
  });
  if (o.backhaulMs !== undefined) {
    const { startOverTestbed } = await import('../packages/player-demo/server/startOverTestbed.mjs');
    console.log(`building the emulated network (backhaul ${o.backhaulMs} ms RTT)…`);
    try {
      mkdirSync(dataDir, { recursive: true });
      network = await startOverTestbed({ rttMs: o.backhaulMs, hold: o.hold, host: o.host, ports: o.ports, logFile: networkLog });
    } catch (e) {
      if (e?.flag)
        throw new StartError(
          e.code === 'EADDRINUSE' ? 'ERR_START_PORT_IN_USE' : 'ERR_START_LISTEN',
          `port ${e.port} on ${o.host}: ${e.code ?? e.message}; choose another with --${e.flag} N (0 = any free port)`,
        );
      throw new StartError('ERR_START_TESTBED', `cannot build the emulated network: ${String(e?.message ?? e).split('\n')[0]}`);
    }
    started.push(network);
    origin = { url: network.originUrl, close: async () => undefined };
    edge = { url: network.edgeUrl, close: async () => undefined };
  } else {
    origin = await listen('origin-port', o.host, o.ports.origin, () =>
      startOrigin({ port: o.ports.origin, host: o.host, streams: DEFAULT_STREAMS }),
    );
    // The edge reports what it did per session (hold, group, redirect, cache hits) to the
    // collector, labelled with its host:port — the label the demo's probes give it (meta.edge).
    const edgeConfig = createEdgeConfig({
      origin: origin.url,
      port: o.ports.edge,
      host: o.host,
      hold: o.hold,
      collector: { url: collector.url },
    });
    edge = await listen('edge-port', o.host, o.ports.edge, () => startEdge(edgeConfig));
  }
  const scheme = o.hold === 'auto' ? 'auto' : `hold-${o.hold}`;
  const demo = await listen('port', o.host, o.ports.demo, () =>
    startDemoServer({
      port: o.ports.demo,
      host: o.host,
      config: { originUrl: origin.url, edgeUrl: edge.url, collectorUrl: collector.url, stream: o.stream, player: o.player, scheme },
    }),
  );
  const manifest = `live/${o.stream}/${o.player === 'hls' ? 'index.m3u8' : 'manifest.mpd'}`;
  console.log(`
ETHLE demo is up (${o.stream}, ${{ hls: 'hls.js', dash: 'dash.js', shaka: 'Shaka Player' }[o.player]}).
  open        ${demo.url}/              (the same live stream direct and through the edge, live QoE)
  sw          ${demo.url}/sw.html       (the edge inside a service worker: ?sw=on|off&x=2|auto)
  dashboard   ${demo.url}/dashboard.html
  origin      ${origin.url}/${manifest}   (stats: ${origin.url}/stats)
  edge        ${edge.url}/${manifest}   (metrics: ${edge.url}/metrics, hold ${o.hold})
  collector   ${collector.url}/v1/health   (the probes' beacons; DuckDB in ${shown(dbFile)})${network ? `\n  network     ${network.describe}\n              (the pages' requests enter the emulated network at the client through a forwarder; the edge's log: ${shown(networkLog)})` : '\n  network     loopback (npm start -- --backhaul 224, as root, puts an emulated radio and backhaul in between)'}
Ctrl-C to stop.`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.allSettled([demo.close(), edge.close(), origin.close()]);
    // After the edge: its last session report goes to the collector as it closes.
    await collector.close();
    await network?.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  fail(e);
}
