import type { LatenessSummary } from '../relay/LatenessHistogram.js';
import type { DirectionStats, LinkStats } from '../relay/startRelay.js';
import type { UdpSocketRow } from './parseProcNetUdp.js';

/** A TUN device's kernel counters (ip -s link) and its qdisc's drops (tc -s qdisc). */
export interface TunCounters {
  /** Packets its socat read (the kernel sent them on the link). */
  txPackets: number;
  /** Packets the kernel dropped because the device's queue (txqueuelen) was full. */
  txDropped: number;
  /** Packets its socat wrote (the host received them from the link). */
  rxPackets: number;
  /** Packets written to it that the kernel refused. */
  rxDropped: number;
  /** Packets the device's qdisc dropped. */
  qdiscDrops: number;
}

/** Everything counted on one link when it was read: the relay's counters, the two TUN devices', and the four UDP sockets'. */
export interface LinkCounters {
  relay: LinkStats;
  /** Side a (towards the client) and side b (towards the origin). */
  tun: { a: TunCounters; b: TunCounters };
  /** The relay's sockets (aListen, bListen) and the socats' (aPeer, bPeer); undefined: not found in /proc/net/udp. */
  sockets: { aListen?: UdpSocketRow; aPeer?: UdpSocketRow; bListen?: UdpSocketRow; bPeer?: UdpSocketRow };
}

/** Drops the link models: what the emulated network does. */
export interface ModelledDrops {
  /** Random loss (`loss`). */
  loss: number;
  /** A full queue: the rate cap's drop-tail or the cell's per-user buffer. */
  queueFull: number;
  /** The cell's PDCP discard timer. */
  pdcpDiscard: number;
}

/** Drops the link does not model: the testbed's own machinery lost the packet. Any is a broken run. */
export interface UnmodelledDrops {
  /** The sending host's TUN queue was full (tx_dropped): its socat read more slowly than the host sent. */
  tunTx: number;
  /** The sending host's qdisc on the TUN dropped. */
  qdisc: number;
  /** The relay's receiving socket overflowed (/proc/net/udp drops): the relay read more slowly than its socat wrote. */
  relaySocket: number;
  /** The relay's queue between its threads was full: its sending thread fell behind. */
  ring: number;
  /** The far socat's receiving socket overflowed: it wrote to its TUN more slowly than the relay sent. */
  socatSocket: number;
  /** The far TUN refused the packet (rx_dropped). */
  tunRx: number;
}

/** One direction of a link, packet by packet. */
export interface DirectionAccount {
  /** Packets the sending host put on the link (its TUN's socat read them). */
  entered: number;
  /** Packets the receiving host took off the link (written to its TUN). */
  delivered: number;
  modelled: ModelledDrops;
  unmodelled: UnmodelledDrops;
  /** Admitted by the relay and not yet sent (waiting for their departure) when read. */
  inFlight: number;
  /**
   * entered − delivered − every counted drop − in flight: packets lost where no counter looks.
   * Only meaningful when the link was quiet when read (nothing in a socket's queue, nothing in
   * flight): undefined otherwise.
   */
  unaccounted?: number;
  lateness: LatenessSummary;
  naturalLateness?: LatenessSummary;
}

export interface LinkAccount {
  up: DirectionAccount;
  down: DirectionAccount;
  ring: LinkStats['ring'];
  injected?: LinkStats['injected'];
  threads?: LinkStats['threads'];
}

const sum = (o: object) => Object.values(o).reduce((a: number, b: number) => a + b, 0);

/**
 * One direction: from the TUN on side `from` through the relay to the TUN on the other side. Up
 * goes a → b (the relay reads on aListen, sends to socat b on bPeer); down goes b → a.
 */
function accountDirection(c: LinkCounters, dir: 'up' | 'down'): DirectionAccount {
  const [from, to] = dir === 'up' ? (['a', 'b'] as const) : (['b', 'a'] as const);
  const d: DirectionStats = c.relay[dir];
  const relaySocket = dir === 'up' ? c.sockets.aListen : c.sockets.bListen;
  const socatSocket = dir === 'up' ? c.sockets.bPeer : c.sockets.aPeer;
  const modelled: ModelledDrops = { loss: d.lossDrops, queueFull: d.drops - (d.discardDrops ?? 0), pdcpDiscard: d.discardDrops ?? 0 };
  const unmodelled: UnmodelledDrops = {
    tunTx: c.tun[from].txDropped,
    qdisc: c.tun[from].qdiscDrops,
    relaySocket: relaySocket?.drops ?? 0,
    ring: d.ringFull,
    socatSocket: socatSocket?.drops ?? 0,
    tunRx: c.tun[to].rxDropped,
  };
  const inFlight = d.packets - d.ringFull - d.sent;
  const quiet =
    inFlight === 0 &&
    relaySocket !== undefined &&
    socatSocket !== undefined &&
    relaySocket.rxQueueBytes === 0 &&
    socatSocket.rxQueueBytes === 0;
  const entered = c.tun[from].txPackets;
  const delivered = c.tun[to].rxPackets;
  // tunTx and qdisc drops happened before the packet entered (the socat never read it).
  const lostOnTheWay =
    modelled.loss +
    modelled.queueFull +
    modelled.pdcpDiscard +
    unmodelled.relaySocket +
    unmodelled.ring +
    unmodelled.socatSocket +
    unmodelled.tunRx;
  return {
    entered,
    delivered,
    modelled,
    unmodelled,
    inFlight,
    ...(quiet ? { unaccounted: entered - delivered - lostOnTheWay } : {}),
    lateness: d.lateness,
    ...(d.naturalLateness ? { naturalLateness: d.naturalLateness } : {}),
  };
}

/** A link's counters as an account per direction: what entered, what left, and where the rest went. */
export function accountLink(c: LinkCounters): LinkAccount {
  return {
    up: accountDirection(c, 'up'),
    down: accountDirection(c, 'down'),
    ring: c.relay.ring,
    ...(c.relay.injected ? { injected: c.relay.injected } : {}),
    ...(c.relay.threads ? { threads: c.relay.threads } : {}),
  };
}

/** All unmodelled drops of a direction. */
export const unmodelledTotal = (d: DirectionAccount) => sum(d.unmodelled);
/** All modelled drops of a direction. */
export const modelledTotal = (d: DirectionAccount) => sum(d.modelled);
