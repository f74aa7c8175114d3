import { readFileSync } from 'node:fs';
import { inNs, sh } from '../testbed/sh.js';
import type { TunCounters } from './accountLink.js';
import { parseNstat, tcpCounters, type TcpCounters } from './parseNstat.js';
import { parseProcNetUdp, type UdpSocketRow } from './parseProcNetUdp.js';

interface IpLinkJson {
  ifname: string;
  stats64?: { rx: { packets: number; dropped: number }; tx: { packets: number; dropped: number } };
}
interface TcQdiscJson {
  dev: string;
  root?: boolean;
  drops?: number;
}

/** Every device of a namespace: its TUN counters (`ip -s -j link`) with its root qdiscs' drops (`tc -s -j qdisc`). */
export async function readTunCounters(ns: string): Promise<Map<string, TunCounters>> {
  const [links, qdiscs] = await Promise.all([
    sh('ip', ['-n', ns, '-s', '-j', 'link', 'show']),
    sh('tc', ['-n', ns, '-s', '-j', 'qdisc', 'show']),
  ]);
  const drops = new Map<string, number>();
  for (const q of JSON.parse(qdiscs) as TcQdiscJson[]) if (q.root) drops.set(q.dev, (drops.get(q.dev) ?? 0) + (q.drops ?? 0));
  const out = new Map<string, TunCounters>();
  for (const l of JSON.parse(links) as IpLinkJson[]) {
    const s = l.stats64;
    if (!s) continue;
    out.set(l.ifname, {
      txPackets: s.tx.packets,
      txDropped: s.tx.dropped,
      rxPackets: s.rx.packets,
      rxDropped: s.rx.dropped,
      qdiscDrops: drops.get(l.ifname) ?? 0,
    });
  }
  return out;
}

/** The UDP sockets of this process's network namespace (the socats' and relays' live in it). */
export function readUdpSockets(): UdpSocketRow[] {
  return parseProcNetUdp(readFileSync('/proc/net/udp', 'utf8'));
}

/** A namespace's TCP and IP counters (TCP_COUNTERS), as `nstat -a` would print them. */
export async function readTcpCounters(ns: string): Promise<TcpCounters> {
  return tcpCounters(parseNstat(await inNs(ns, 'cat', ['/proc/net/snmp', '/proc/net/netstat'])));
}
