// Where a TLS manifest request's CPU goes: the edge (startEdge in this process, the held playlist
// of vsNginx's origin, `--hold 0`); the edge's receiver-facing server (createEdgeServer) answering
// the same response without the edge's router; plain node:https servers answering it, each with one
// of the settings createEdgeServer makes; and a plain server in a process of its own. The response
// (status, headers, body) is the edge's own, read from it once and replayed with a fresh Date.
//   npx tsx packages/edge-node/bench/serverCost.ts [--rounds 3] [--seconds 3] [--warm-seconds 1] [--only edge,plain]
// wrk -t1 -c50 on each in turn (the order reversed every round), after an unmeasured warm-up run;
// figure: CPU (user + system, all threads) of the process serving, over the measured run ÷ the
// requests wrk counted. Only one server is loaded at a time; in this process the edge's pollers and
// timers are part of every figure, so `plain-own-process` tells what sharing the process costs.
// Needs wrk and openssl.
import { spawn } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { request } from 'undici';
import { createEdgeServer } from '../src/http/createEdgeServer.js';
import { httpDate } from '../src/http/httpDate.js';
import { createEdgeConfig, startEdge } from '../src/index.js';
import { benchAgent, cpuSecondsTree, requireTools, startStaticOrigin, throwawayCert, wrk } from './benchTools.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '3' },
    'warm-seconds': { type: 'string', default: '1' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
  },
});
requireTools(['wrk', 'openssl'], 'On Debian: apt-get install -y wrk openssl.');
const seconds = Number(values.seconds);
const warmSeconds = Number(values['warm-seconds']);
const connections = Number(values.connections);

const origin = await startStaticOrigin(500_000);
const cert = throwawayCert();
const tls = { key: readFileSync(cert.keyPath), cert: readFileSync(cert.certPath) };
const config = createEdgeConfig({
  origin: origin.url,
  port: 0,
  hold: 0,
  logLevel: 'silent',
  maxConnectionsPerClient: 0,
  tls: { keyPath: cert.keyPath, certPath: cert.certPath },
});
const edge = await startEdge(config);
const path = '/live/bench/index.m3u8';

// The edge's answer to a manifest request, replayed by the other servers (Node adds Connection
// and Keep-Alive itself; Date is made per answer, as the edge makes it).
const dispatcher = benchAgent(1);
const sample = await request(edge.url + path, { dispatcher });
const body = Buffer.from(await sample.body.arrayBuffer());
await dispatcher.close();
const replayed: Record<string, string> = {};
for (const [k, v] of Object.entries(sample.headers))
  if (typeof v === 'string' && k !== 'connection' && k !== 'keep-alive' && k !== 'date') replayed[k] = v;
const answer = (_req: IncomingMessage, res: ServerResponse): void => {
  const h: Record<string, string> = { ...replayed };
  h['date'] = httpDate();
  res.writeHead(200, h).end(body);
};

/** Connections accepted by this process's servers, by local port: a server that closes its keep-alive connections pays a TLS handshake per new one. */
const accepted = new Map<number, number>();
subscribe('net.server.socket', (m) => {
  const port = (m as { socket: { localPort?: number } }).socket.localPort ?? 0;
  accepted.set(port, (accepted.get(port) ?? 0) + 1);
});

interface Target {
  url: string;
  /** CPU seconds of the process serving it, so far. */
  cpu(): number;
  close(): void;
}
const inThisProcess = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};
const urlOf = (s: Server): string => `https://127.0.0.1:${(s.address() as AddressInfo).port}${path}`;
const listening = async (s: Server): Promise<Target> => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: urlOf(s),
    cpu: inThisProcess,
    close: () => {
      s.close();
      s.closeAllConnections();
    },
  };
};
/** A plain node:https server answering `answer`, with what `set` applies of createEdgeServer's settings. */
const plain = (options: ServerOptions, set: (s: Server) => void = () => {}): Promise<Target> => {
  const s = createServer({ ...options, ...tls }, answer) as unknown as Server;
  set(s);
  return listening(s);
};

/** The same plain server in a Node process of its own (the code below, run with `node -e`). */
async function ownProcess(): Promise<Target> {
  const script = `
    const { createServer } = await import('node:https');
    const { readFileSync } = await import('node:fs');
    const o = JSON.parse(process.argv[1]);
    const body = Buffer.from(o.body, 'base64');
    const s = createServer({ key: readFileSync(o.key), cert: readFileSync(o.cert) }, (req, res) => {
      res.writeHead(200, { ...o.headers, date: new Date().toUTCString() }).end(body);
    });
    s.listen(0, '127.0.0.1', () => console.log('listening on ' + s.address().port));`;
  const args = JSON.stringify({ headers: replayed, body: body.toString('base64'), key: cert.keyPath, cert: cert.certPath });
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`plain server process exited ${code}`)));
  });
  return { url: `https://127.0.0.1:${port}${path}`, cpu: () => cpuSecondsTree(child.pid!), close: () => void child.kill() };
}

const variants: Record<string, () => Promise<Target>> = {
  edge: async () => ({ url: edge.url + path, cpu: inThisProcess, close: () => {} }),
  createEdgeServer: () => listening(createEdgeServer(config, tls, answer, pino({ level: 'silent' }), () => {}).server),
  plain: () => plain({}),
  'plain-own-process': ownProcess,
  'plain + connectionsCheckingInterval': () =>
    plain({ connectionsCheckingInterval: Math.min(1000, Math.max(50, config.requestHeadersTimeoutMs / 4)) }),
  'plain + timeout': () => plain({}, (s) => (s.timeout = Math.max(config.keepAliveTimeoutMs, 120_000))),
  'plain + headers/request/keep-alive timeouts': () =>
    plain({}, (s) => {
      s.headersTimeout = config.requestHeadersTimeoutMs;
      s.requestTimeout = config.requestHeadersTimeoutMs + 1000;
      s.keepAliveTimeout = config.keepAliveTimeoutMs;
    }),
};
const names = values.only === undefined ? Object.keys(variants) : values.only.split(',');
const targets = new Map<string, Target>();
for (const n of names) {
  const make = variants[n];
  if (make === undefined) throw new Error(`--only: no variant '${n}'; they are: ${Object.keys(variants).join(', ')}`);
  targets.set(n, await make());
}

console.log(
  `manifest over HTTPS (${body.length}-B body, ${Object.keys(replayed).length + 3} headers), wrk -t1 -c${connections} -d${seconds}s after ${warmSeconds} s unmeasured, ${values.rounds} rounds`,
);
const figures = new Map<string, string[]>(names.map((n) => [n, []]));
for (let r = 0; r < Number(values.rounds); r++) {
  for (const n of r % 2 === 0 ? names : [...names].reverse()) {
    const t = targets.get(n)!;
    if (warmSeconds > 0) await wrk(t.url, { connections, seconds: warmSeconds });
    const port = Number(new URL(t.url).port);
    const cpu0 = t.cpu();
    const accepted0 = accepted.get(port) ?? 0;
    const w = await wrk(t.url, { connections, seconds });
    const cpu = t.cpu() - cpu0;
    const fresh = t.cpu === inThisProcess ? `, ${(accepted.get(port) ?? 0) - accepted0} new conns` : '';
    figures.get(n)!.push(`${((cpu / (w.requestsPerSec * seconds)) * 1e6).toFixed(1)} (${w.requestsPerSec.toFixed(0)}/s${fresh})`);
  }
}
console.log('| server | CPU µs per request (req/s, connections accepted in the measured run), per round |\n|---|---|');
for (const n of names) console.log(`| ${n} | ${figures.get(n)!.join(', ')} |`);

for (const t of targets.values()) t.close();
await edge.close();
cert.dispose();
origin.close();
