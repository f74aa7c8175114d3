import type { HostName, Testbed } from '../testbed/createTestbed.js';
import { distFile } from '../testbed/sh.js';

const here = (f: string) => distFile(import.meta.url, f);

export interface TransferResult {
  connectMs: number;
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  /** [ms since the connection started, bytes received] */
  samples: [number, number][];
}

/**
 * How to run a measuring process: as any process (default), or at real-time priority 40 — below the
 * relays (50), above everything else — so that when the links are validated under CPU load, the
 * probe's own wait for a CPU is not counted as the link's delay or lost rate.
 */
export interface ProbeOptions {
  realtime?: boolean;
  /** The client address to connect from (a cell user's, Testbed.hosts.client.ips). */
  localAddress?: string;
}

const node = (o: ProbeOptions, args: string[]): [string, string[]] =>
  o.realtime ? ['chrt', ['-f', '40', process.execPath, ...args]] : [process.execPath, args];

/** Starts the bulk server on `host` (default origin) and resolves with a stop function. */
export async function startBulkServer(tb: Testbed, host: HostName = 'origin', port = 9000, o: ProbeOptions = {}): Promise<() => void> {
  const p = tb.spawn(host, ...node(o, [here('./bulkServer.js'), String(port)]));
  await new Promise<void>((resolve, reject) => {
    p.stdout!.once('data', () => resolve());
    p.once('exit', (c) => reject(new Error(`bulk server exited with ${c}`)));
  });
  return () => p.kill();
}

/** One fresh-connection transfer of `bytes` from `toIp:port` to `from`. */
export async function transfer(
  tb: Testbed,
  from: HostName,
  toIp: string,
  bytes: number,
  port = 9000,
  o: ProbeOptions = {},
): Promise<TransferResult> {
  return JSON.parse(
    await tb.exec(
      from,
      ...node(o, [here('./bulkClient.js'), toIp, String(port), String(bytes), ...(o.localAddress ? [o.localAddress] : [])]),
    ),
  ) as TransferResult;
}

/** Minimum TCP connect time (one round trip) over `n` attempts. */
export async function tcpRttMs(tb: Testbed, from: HostName, toIp: string, port = 9000, n = 5, o: ProbeOptions = {}): Promise<number> {
  const script = `const net=require('net');let k=0,min=1e9;const go=()=>{const t=performance.now();const s=net.connect(${port},'${toIp}',()=>{min=Math.min(min,performance.now()-t);s.destroy();if(++k<${n})go();else console.log(min)})};go()`;
  return Number(await tb.exec(from, ...node(o, ['-e', script])));
}

/**
 * Wire rate after slow start, bit/s: from the first sample at or past `fraction` of the bytes to
 * the last, with the bytes that sample really had (1500 wire bytes per 1448 of TCP payload). A
 * read after the receiver was held off a core returns everything queued meanwhile, so taking
 * (1 − fraction) of the bytes for that window over-counts it: a CI run read 118 Mbit/s of a
 * 112 Mbit/s cap that way.
 */
export function steadyWireBps(r: TransferResult, fraction = 0.3): number {
  const target = r.bytes * fraction;
  const [t1, b1] = r.samples.find(([, b]) => b >= target) ?? [r.totalMs, r.bytes];
  return (((r.bytes - b1) * 8) / ((r.totalMs - t1) / 1000)) * (1500 / 1448);
}

/** Time at which `fraction` of the bytes had arrived, from the samples. */
export function timeToFraction(r: TransferResult, fraction: number): number {
  const target = r.bytes * fraction;
  return r.samples.find(([, b]) => b >= target)?.[0] ?? r.totalMs;
}
