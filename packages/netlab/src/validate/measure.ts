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

/** Starts the bulk server on `host` (default origin) and resolves with a stop function. */
export async function startBulkServer(tb: Testbed, host: HostName = 'origin', port = 9000): Promise<() => void> {
  const p = tb.spawn(host, process.execPath, [here('./bulkServer.js'), String(port)]);
  await new Promise<void>((resolve, reject) => {
    p.stdout!.once('data', () => resolve());
    p.once('exit', (c) => reject(new Error(`bulk server exited with ${c}`)));
  });
  return () => p.kill();
}

/** One fresh-connection transfer of `bytes` from `toIp:port` to `from`. */
export async function transfer(tb: Testbed, from: HostName, toIp: string, bytes: number, port = 9000): Promise<TransferResult> {
  return JSON.parse(await tb.exec(from, process.execPath, [here('./bulkClient.js'), toIp, String(port), String(bytes)])) as TransferResult;
}

/** Minimum TCP connect time (one round trip) over `n` attempts. */
export async function tcpRttMs(tb: Testbed, from: HostName, toIp: string, port = 9000, n = 5): Promise<number> {
  const script = `const net=require('net');let k=0,min=1e9;const go=()=>{const t=performance.now();const s=net.connect(${port},'${toIp}',()=>{min=Math.min(min,performance.now()-t);s.destroy();if(++k<${n})go();else console.log(min)})};go()`;
  return Number(await tb.exec(from, process.execPath, ['-e', script]));
}

/** Time at which `fraction` of the bytes had arrived, from the samples. */
export function timeToFraction(r: TransferResult, fraction: number): number {
  const target = r.bytes * fraction;
  return r.samples.find(([, b]) => b >= target)?.[0] ?? r.totalMs;
}
