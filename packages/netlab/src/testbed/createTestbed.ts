import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accountLink, type LinkAccount, type LinkCounters } from '../accounting/accountLink.js';
import type { TcpCounters } from '../accounting/parseNstat.js';
import { readTcpCounters, readTunCounters, readUdpSockets } from '../accounting/readCounters.js';
import { NetlabError } from '../errors/NetlabError.js';
import { MAX_CELL_USERS, type CellSpec } from '../relay/CellSpec.js';
import { latenessInjectionProblem, type LatenessInjection } from '../relay/FreezeSchedule.js';
import type { LinkSpec } from '../relay/LinkSpec.js';
import type { RelayConfig } from '../relay/relayMain.js';
import { startRelay, type LinkStats, type Relay } from '../relay/startRelay.js';
import { freePorts } from './freePorts.js';
import { holdSysctls, releaseSysctls } from './holdSysctls.js';
import { linkBuffers, type LinkBuffers } from './linkBuffers.js';
import { DEFAULT_SENDER_PRIORITY, makeRealtime, PATH_PRIORITY, setThreadPriority } from './makeRealtime.js';
import { inNs, killNsProcesses, sh, spawnInNs } from './sh.js';

export type CongestionControl = 'bbr' | 'cubic' | 'reno';
export type HostName = 'client' | 'edge' | 'origin';

export interface TestbedOptions {
  /** client ↔ edge (the radio access network). */
  ran: LinkSpec;
  /** edge ↔ origin (the long-RTT backhaul). */
  backhaul: LinkSpec;
  /** Congestion control in every namespace (default bbr), or per host. */
  cc?: CongestionControl | Partial<Record<HostName, CongestionControl>>;
  /**
   * Maximum TCP send and receive buffer (tcp_wmem/tcp_rmem, bytes) on every host. Undefined keeps
   * what a new namespace starts with — Linux's defaults, 4 MB send — which caps one flow over a
   * 224 ms RTT near 100 Mbit/s; origins serving 4K far away are usually tuned above that.
   */
  tcpBufferBytes?: number;
  /**
   * Run the relays and socats at real-time priority (SCHED_FIFO), so the links' timing does not
   * depend on what else the CPU does (default true; needs CAP_SYS_NICE, which root has).
   */
  realtime?: boolean;
  /**
   * SCHED_FIFO priority of each relay's sending thread, with `realtime` (default
   * DEFAULT_SENDER_PRIORITY, 60: above the receiving threads and socats at 50). FIFO threads of one
   * priority never preempt each other, so at 50 a departure that falls due waits for the
   * forwarding work on the core (a burst through the other link); above it, the departure goes
   * first. Each relay's account (`threads`) says how long its threads waited for a CPU.
   */
  senderPriority?: number;
  /**
   * Several receivers in the RAN's cell (default one): user i is the client address
   * 10.77.1.(2 + i), all in the one client namespace; the RAN relay shapes each user's traffic as
   * its own link (`per-user`) or all of it through the `ran` spec's one rate cap (`shared`).
   */
  cell?: CellSpec;
  /**
   * Extra departure lateness in the relays, on purpose (FreezeSchedule): to measure what a given
   * lateness does to the results. Each link's freezes are seeded from `seed` and its name. `link`:
   * only that link's relay (both its directions: one sending thread serves them); default both.
   */
  lateness?: LatenessInjection & { link?: 'ran' | 'backhaul' };
}

/**
 * Every packet of the run, per link and direction (accountLink), and each host's TCP counters.
 * `settled`: the links were quiet when read, so each direction's `unaccounted` is exact.
 */
export interface TestbedAccount {
  links: { ran: LinkAccount; backhaul: LinkAccount };
  tcp: Record<HostName, TcpCounters>;
  settled: boolean;
  /** What the links' queues were sized to (linkBuffers). */
  buffers: LinkBuffers;
}

export interface Host {
  ns: string;
  /** The address other hosts reach it at (the edge: its backhaul-side address for the origin, RAN side for the client). */
  ip: string;
}

export interface Testbed {
  id: string;
  hosts: {
    client: Host & { /** One address per cell user, user 0 first (= ip). */ ips: string[] };
    edge: Host & { ranIp: string; backhaulIp: string };
    origin: Host;
  };
  /** Runs a command in a host's namespace and returns its stdout. */
  exec(host: HostName, cmd: string, args: string[]): Promise<string>;
  /** Spawns a long-running command in a host's namespace. */
  spawn(host: HostName, cmd: string, args: string[]): ChildProcess;
  /** An executable that runs Debian's Chromium in the client namespace (Playwright's executablePath). */
  chromiumWrapper(chromium?: string): string;
  stats(): Promise<{ ran: LinkStats; backhaul: LinkStats }>;
  /**
   * Reads every counter on the links' paths (TUN devices, qdiscs, the socats' and relays' UDP
   * sockets, the relays) and each host's TCP counters, since the testbed was made. With `settle`,
   * first waits (up to `timeoutMs`, default 5 s) until nothing is in flight on any link and two
   * reads agree, so what entered a link and what left it can be balanced exactly; the caller must
   * have stopped its traffic.
   */
  account(o?: { settle?: boolean; timeoutMs?: number }): Promise<TestbedAccount>;
  close(): Promise<void>;
}

/** Every namespace we make starts with this, so a crashed run's leftovers can be found. */
export const NS_PREFIX = 'ethle-';

async function waitFor(cond: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Whether a process exits within `ms` (it may have died without its exit event handled yet). */
function exitWithin(p: ChildProcess, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => (p.off('exit', onExit), resolve(false)), ms);
    const onExit = () => (clearTimeout(timer), resolve(true));
    p.once('exit', onExit);
  });
}

class SocatExit extends Error {
  constructor(dev: string, stderr: string) {
    super(`socat exited before creating TUN ${dev}: ${stderr.trim() || 'no message'}`);
  }
}

interface LinkHandle {
  relay: Relay;
  socats: ChildProcess[];
  ports: { aListen: number; aPeer: number; bListen: number; bPeer: number };
  /** The TUN device on each side and the namespace it is in. */
  tun: { a?: { ns: string; dev: string }; b?: { ns: string; dev: string } };
}

/**
 * Builds client — RAN — edge — backhaul — origin in three network namespaces. Each link is a pair
 * of TUN devices (one per namespace, made by socat and moved in) joined by a user-space relay that
 * delays, rate-limits and drops datagrams: real kernel TCP sees real round trips. The edge forwards
 * IP, so the client reaches the origin through it (E2E) without touching the edge server.
 */
export async function createTestbed(o: TestbedOptions): Promise<Testbed> {
  if (process.getuid?.() !== 0) throw new Error('netlab needs root (network namespaces, TUN devices)');
  if (o.tcpBufferBytes !== undefined && !(Number.isSafeInteger(o.tcpBufferBytes) && o.tcpBufferBytes >= 65536)) {
    throw new RangeError(`tcpBufferBytes must be an integer ≥ 65536, got ${o.tcpBufferBytes}`);
  }
  const users = o.cell?.users ?? 1;
  if (!(Number.isInteger(users) && users >= 1 && users <= MAX_CELL_USERS))
    throw new RangeError(`cell.users must be an integer in [1, ${MAX_CELL_USERS}], got ${users}`);
  if (o.cell && o.cell.mode !== 'shared' && o.cell.mode !== 'per-user')
    throw new RangeError(`cell.mode must be shared or per-user, got ${String(o.cell.mode)}`);
  if (o.senderPriority !== undefined && !(Number.isInteger(o.senderPriority) && o.senderPriority >= 1 && o.senderPriority <= 98))
    throw new RangeError(`senderPriority must be an integer SCHED_FIFO priority in [1, 98], got ${o.senderPriority}`);
  const injection = o.lateness;
  const injectionProblem = injection && latenessInjectionProblem(injection);
  if (injectionProblem) throw new RangeError(`lateness: ${injectionProblem}`);
  if (injection?.link !== undefined && injection.link !== 'ran' && injection.link !== 'backhaul')
    throw new RangeError(`lateness.link must be ran or backhaul, got ${String(injection.link)}`);
  const clientIps = Array.from({ length: users }, (_, i) => `10.77.1.${2 + i}`);
  const realtime = o.realtime ?? true;
  const buffers = linkBuffers(o.tcpBufferBytes);
  const id = randomBytes(3).toString('hex');
  const ns = { client: `${NS_PREFIX}${id}-client`, edge: `${NS_PREFIX}${id}-edge`, origin: `${NS_PREFIX}${id}-origin` };
  const links: LinkHandle[] = [];
  const tmp = mkdtempSync(join(tmpdir(), `ethle-netlab-${id}-`));
  let closed = false;

  let releaseBuffers: (() => void) | undefined;
  const teardownSync = () => {
    for (const l of links) {
      l.relay.stopping();
      for (const p of [l.relay.process, ...l.socats]) p.kill('SIGKILL');
    }
    for (const n of Object.values(ns)) {
      killNsProcesses(n);
      spawnSync('ip', ['netns', 'del', n]);
    }
    rmSync(tmp, { recursive: true, force: true });
    releaseBuffers?.();
  };
  const onExit = () => teardownSync();
  process.once('exit', onExit);

  async function link(
    name: string,
    aNs: string,
    aIp: string,
    bNs: string,
    bIp: string,
    spec: LinkSpec,
    cell?: RelayConfig['cell'],
  ): Promise<LinkHandle> {
    // A port chosen free can be taken by another process before the relay or socat binds it (the
    // relay then fails its bind; socat exits and its TUN never appears): take fresh ports and
    // device names and try again.
    for (let attempt = 0; ; attempt++) {
      try {
        return await linkOnce(name, attempt, aNs, aIp, bNs, bIp, spec, cell);
      } catch (e) {
        const portTaken = e instanceof SocatExit || (e instanceof NetlabError && e.code === 'NETLAB_PORT_TAKEN');
        if (!portTaken || attempt >= 2) throw e;
      }
    }
  }

  async function linkOnce(
    name: string,
    attempt: number,
    aNs: string,
    aIp: string,
    bNs: string,
    bIp: string,
    spec: LinkSpec,
    cell?: RelayConfig['cell'],
  ): Promise<LinkHandle> {
    const [aListen, aPeer, bListen, bPeer] = (await freePorts(4)) as [number, number, number, number];
    // Each link its own freezes, the same for every run with the injection's seed.
    const injected = injection && (injection.link === undefined || injection.link === name) ? injection : undefined;
    const lateness = injected
      ? {
          p99Ms: injected.p99Ms,
          stallsPerMinute: injected.stallsPerMinute,
          ...(injected.stallMs ? { stallMs: injected.stallMs } : {}),
          seed: (injected.seed ^ (name === 'ran' ? 0x2545f491 : 0x9e3779b9)) >>> 0,
        }
      : undefined;
    const cfg: RelayConfig = {
      aListen,
      aPeer,
      bListen,
      bPeer,
      link: spec,
      socketBytes: buffers.socketBytes,
      ...(cell ? { cell } : {}),
      ...(lateness ? { lateness } : {}),
    };
    const relay = await startRelay(cfg, tmp, `${name}${attempt}`);
    if (realtime) {
      const raise = async () => {
        await makeRealtime(relay.process.pid!);
        const priority = o.senderPriority ?? DEFAULT_SENDER_PRIORITY;
        if (priority === PATH_PRIORITY) return;
        if (relay.senderTid === undefined)
          throw new NetlabError('NETLAB_REALTIME', 'senderPriority: the relay could not name its sending thread (no /proc/thread-self)');
        await setThreadPriority(relay.senderTid, priority);
      };
      await raise().catch((e) => (relay.stopping(), relay.process.kill('SIGKILL'), Promise.reject(e)));
    }
    const handle: LinkHandle = { relay, socats: [], ports: { aListen, aPeer, bListen, bPeer }, tun: {} };
    links.push(handle);
    for (const [side, nsName, ip, listen, peer] of [
      ['a', aNs, aIp, aPeer, aListen],
      ['b', bNs, bIp, bPeer, bListen],
    ] as const) {
      const dev = `e${id}${name[0]}${side}${attempt}`; // ≤ 15 chars, unique per testbed and attempt
      // Its UDP socket's buffers hold a burst while it writes to the TUN one packet per call (linkBuffers).
      const udp = `UDP-DATAGRAM:127.0.0.1:${peer},bind=127.0.0.1:${listen},rcvbuf=${buffers.socketBytes},sndbuf=${buffers.socketBytes}`;
      const socat = spawn('socat', ['-b', '65536', `TUN,tun-name=${dev},tun-type=tun,iff-no-pi`, udp], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      handle.socats.push(socat);
      let stderr = '';
      socat.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-500)));
      const giveUp = (e: unknown) => {
        relay.stopping();
        for (const p of [relay.process, ...handle.socats]) p.kill('SIGKILL');
        links.splice(links.indexOf(handle), 1);
        return e;
      };
      try {
        await waitFor(async () => {
          if (socat.exitCode !== null || socat.signalCode !== null) throw new SocatExit(dev, stderr);
          return (await sh('ip', ['-o', 'link', 'show']).catch(() => '')).includes(`${dev}:`);
        }, `TUN ${dev}`);
      } catch (e) {
        throw giveUp(e);
      }
      try {
        if (realtime) await makeRealtime(socat.pid!);
        // Moving a device to another namespace drops its addresses, so configure it there.
        await sh('ip', ['link', 'set', dev, 'netns', nsName]);
        await sh('ip', ['-n', nsName, 'addr', 'add', `${ip}/24`, 'dev', dev]);
        // The cell's other users: more addresses on the client's side of the RAN (one namespace;
        // the relay tells them apart by address).
        if (cell && side === 'a')
          for (const extra of clientIps.slice(1)) await sh('ip', ['-n', nsName, 'addr', 'add', `${extra}/24`, 'dev', dev]);
        // No IPv6 on the link: its router solicitations and MLD reports would be the first packets
        // through the relay and start a seeded delay walk at a random moment before the run's
        // first connection, so the same seed would not give the same radio.
        await inNs(nsName, 'sysctl', ['-q', '-w', `net.ipv6.conf.${dev}.disable_ipv6=1`]);
        // The TUN's queue holds a burst while its socat reads it one packet per call (linkBuffers).
        await sh('ip', ['-n', nsName, 'link', 'set', dev, 'mtu', '1500', 'txqueuelen', String(buffers.txQueueLen), 'up']);
        handle.tun[side] = { ns: nsName, dev };
      } catch (e) {
        // socat can create its TUN and then exit when its UDP port was taken in the meantime
        // (the device vanishes with it): that is the port race again, so let link() retry.
        const exited = socat.exitCode !== null || socat.signalCode !== null || (await exitWithin(socat, 1000));
        throw giveUp(exited ? new SocatExit(dev, stderr) : e);
      }
    }
    return handle;
  }

  try {
    // The sockets on the links' path ask for buffers above Linux's default maximum, which caps
    // them silently: raise the maxima while this testbed lives (restored by the last one out).
    try {
      releaseBuffers = holdSysctls(id, { 'net.core.rmem_max': buffers.socketBytes, 'net.core.wmem_max': buffers.socketBytes });
    } catch (e) {
      throw new NetlabError(
        'NETLAB_BUFFERS',
        `cannot raise net.core.rmem_max/wmem_max to ${buffers.socketBytes} for the links' sockets (${(e as Error).message})`,
        { bytes: buffers.socketBytes },
      );
    }
    for (const n of Object.values(ns)) {
      await sh('ip', ['netns', 'add', n]);
      await sh('ip', ['-n', n, 'link', 'set', 'lo', 'up']);
    }
    const cc = typeof o.cc === 'string' || o.cc === undefined ? { client: o.cc, edge: o.cc, origin: o.cc } : o.cc;
    // A new namespace may only pick from the init namespace's allowed list (often "reno bbr"):
    // add what we need there (a global setting; it only widens the choice).
    const allowed = (await sh('sysctl', ['-n', 'net.ipv4.tcp_allowed_congestion_control'])).trim().split(/\s+/);
    const wanted = [...new Set(Object.values(cc).map((c) => c ?? 'bbr'))].filter((c) => !allowed.includes(c));
    if (wanted.length > 0) await sh('sysctl', ['-q', '-w', `net.ipv4.tcp_allowed_congestion_control=${[...allowed, ...wanted].join(' ')}`]);
    for (const h of ['client', 'edge', 'origin'] as const) {
      await inNs(ns[h], 'sysctl', ['-q', '-w', `net.ipv4.tcp_congestion_control=${cc[h] ?? 'bbr'}`]);
    }
    if (o.tcpBufferBytes !== undefined) {
      for (const h of ['client', 'edge', 'origin'] as const) {
        await inNs(ns[h], 'sysctl', [
          '-q',
          '-w',
          `net.ipv4.tcp_wmem=4096 16384 ${o.tcpBufferBytes}`,
          `net.ipv4.tcp_rmem=4096 131072 ${o.tcpBufferBytes}`,
        ]);
      }
    }
    await inNs(ns.edge, 'sysctl', ['-q', '-w', 'net.ipv4.ip_forward=1']);
    await link('ran', ns.client, clientIps[0]!, ns.edge, '10.77.1.1', o.ran, users > 1 ? { ...o.cell!, firstHost: 2 } : undefined);
    await link('backhaul', ns.edge, '10.77.2.1', ns.origin, '10.77.2.2', o.backhaul);
    await sh('ip', ['-n', ns.client, 'route', 'add', 'default', 'via', '10.77.1.1']);
    await sh('ip', ['-n', ns.origin, 'route', 'add', 'default', 'via', '10.77.2.1']);
    await checkSocketBuffers(
      links.flatMap((l) => Object.values(l.ports)),
      buffers.socketBytes,
    );
  } catch (e) {
    teardownSync();
    process.removeListener('exit', onExit);
    throw e;
  }

  return {
    id,
    hosts: {
      client: { ns: ns.client, ip: clientIps[0]!, ips: clientIps },
      edge: { ns: ns.edge, ip: '10.77.2.1', ranIp: '10.77.1.1', backhaulIp: '10.77.2.1' },
      origin: { ns: ns.origin, ip: '10.77.2.2' },
    },
    exec: (host, cmd, args) => inNs(ns[host], cmd, args),
    spawn: (host, cmd, args) => spawnInNs(ns[host], cmd, args),
    chromiumWrapper(chromium = '/usr/bin/chromium') {
      const path = join(tmp, 'chromium-in-client-ns');
      writeFileSync(path, `#!/bin/sh\nexec ip netns exec ${ns.client} ${chromium} "$@"\n`);
      chmodSync(path, 0o755);
      return path;
    },
    stats: async () => ({ ran: await links[0]!.relay.stats(), backhaul: await links[1]!.relay.stats() }),
    async account(opts = {}) {
      const read = () => readAccount(links as [LinkHandle, LinkHandle], ns, buffers);
      let a = await read();
      if (!opts.settle) return { ...a, settled: false };
      const end = Date.now() + (opts.timeoutMs ?? 5_000);
      for (;;) {
        const quiet = [a.links.ran, a.links.backhaul].every((l) => l.up.unaccounted !== undefined && l.down.unaccounted !== undefined);
        await new Promise((r) => setTimeout(r, 100));
        const b = await read();
        if (quiet && sameCounts(a, b)) return { ...b, settled: true };
        if (Date.now() > end) return { ...b, settled: false };
        a = b;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      process.removeListener('exit', onExit);
      for (const l of links) {
        l.relay.stopping();
        l.relay.process.disconnect?.();
        for (const s of l.socats) s.kill('SIGTERM');
      }
      await new Promise((r) => setTimeout(r, 50));
      teardownSync();
    },
  };
}

/** Reads every link's counters once (not settled). */
async function readAccount(
  links: [LinkHandle, LinkHandle],
  ns: Record<HostName, string>,
  buffers: LinkBuffers,
): Promise<Omit<TestbedAccount, 'settled'>> {
  const hosts = ['client', 'edge', 'origin'] as const;
  const [relays, tuns, tcp] = await Promise.all([
    Promise.all(links.map((l) => l.relay.stats())),
    Promise.all(hosts.map((h) => readTunCounters(ns[h]))),
    Promise.all(hosts.map((h) => readTcpCounters(ns[h]))),
  ]);
  const udp = readUdpSockets();
  const tunOf = new Map(hosts.map((h, i) => [ns[h], tuns[i]!]));
  const counters = (l: LinkHandle, relay: LinkStats): LinkCounters => {
    const tun = (side: 'a' | 'b') => {
      const t = l.tun[side] && tunOf.get(l.tun[side].ns)?.get(l.tun[side].dev);
      if (!t)
        throw new NetlabError(
          'NETLAB_ACCOUNT',
          `no counters for the ${side} side's TUN device of a link (${l.tun[side]?.dev ?? 'never made'})`,
        );
      return t;
    };
    const sock = (port: number) => udp.find((r) => r.localPort === port);
    return {
      relay,
      tun: { a: tun('a'), b: tun('b') },
      sockets: { aListen: sock(l.ports.aListen), aPeer: sock(l.ports.aPeer), bListen: sock(l.ports.bListen), bPeer: sock(l.ports.bPeer) },
    };
  };
  return {
    links: { ran: accountLink(counters(links[0], relays[0]!)), backhaul: accountLink(counters(links[1], relays[1]!)) },
    tcp: { client: tcp[0]!, edge: tcp[1]!, origin: tcp[2]! },
    buffers,
  };
}

/** Whether two reads counted the same packets on every link (nothing moved between them). */
function sameCounts(a: Omit<TestbedAccount, 'settled'>, b: Omit<TestbedAccount, 'settled'>): boolean {
  const key = (x: Omit<TestbedAccount, 'settled'>) =>
    JSON.stringify(
      [x.links.ran.up, x.links.ran.down, x.links.backhaul.up, x.links.backhaul.down].map((d) => [
        d.entered,
        d.delivered,
        d.unmodelled,
        d.modelled,
      ]),
    );
  return key(a) === key(b);
}

/**
 * Checks that every UDP socket on the links' path got the receive buffer asked for (the kernel
 * reports twice the asked size): a smaller one — a maximum that could not be raised — would lose
 * bursts the links are sized for.
 */
async function checkSocketBuffers(ports: number[], bytes: number): Promise<void> {
  // One record per socket: `STATE RECV-Q SEND-Q LOCAL PEER`, then (indented) `skmem:(r…,rb…,…)`.
  const rbOf = new Map<string, number>();
  for (const record of (await sh('ss', ['-uamnH'])).split(/\n(?=\S)/)) {
    const local = record.trim().split(/\s+/)[3];
    const rb = /\brb(\d+)/.exec(record)?.[1];
    if (local && rb) rbOf.set(local, Number(rb));
  }
  const small: string[] = [];
  for (const port of ports) {
    const rb = rbOf.get(`127.0.0.1:${port}`);
    if (rb === undefined || rb < bytes) small.push(`127.0.0.1:${port} rb ${rb ?? 'not found'}`);
  }
  if (small.length > 0)
    throw new NetlabError(
      'NETLAB_BUFFERS',
      `socket buffers below the ${bytes} bytes the links need: ${small.join(', ')} (net.core.rmem_max: ${(await sh('sysctl', ['-n', 'net.core.rmem_max'])).trim()})`,
      { ports, bytes },
    );
}

/** The testbed namespaces (named ethle-*) on this machine now. */
export function testbedNamespaces(): string[] {
  const r = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' });
  return (r.stdout ?? '')
    .split('\n')
    .map((l) => l.split(' ')[0]!)
    .filter((n) => n.startsWith(NS_PREFIX));
}

/**
 * Removes namespaces and socat processes left by crashed runs (anything named ethle-*), except
 * the namespaces in `keep` (a caller's snapshot from before its run: another run's testbeds).
 */
export async function cleanupTestbeds(o: { keep?: ReadonlySet<string> } = {}): Promise<string[]> {
  const names = testbedNamespaces().filter((n) => !o.keep?.has(n));
  for (const n of names) {
    killNsProcesses(n);
    await sh('ip', ['netns', 'del', n]).catch(() => undefined);
  }
  // Every testbed's socats match: only when no other run's testbed is kept.
  if (o.keep === undefined || o.keep.size === 0) spawnSync('pkill', ['-f', 'socat -b 65536 TUN,tun-name=e']);
  // Sysctls raised by testbeds whose process died: restored when no live testbed holds them.
  releaseSysctls();
  return names;
}
