import { describe, expect, it } from 'vitest';
import {
  accountLink,
  dropProblems,
  judgeRun,
  LATE_P99_LIMIT_MS,
  parseNstat,
  parseProcNetUdp,
  tcpCounters,
  type DirectionStats,
  type LinkCounters,
  type TunCounters,
} from '@ethle/netlab';

const lateness = { count: 0, p50Ms: 0, p99Ms: 0, maxMs: 0 };
const dir = (o: Partial<DirectionStats>): DirectionStats => ({
  packets: 0,
  received: 0,
  sent: 0,
  ringFull: 0,
  bytes: 0,
  drops: 0,
  lossDrops: 0,
  queueBytes: 0,
  maxQueueBytes: 0,
  lateness,
  ...o,
});
const tun = (o: Partial<TunCounters>): TunCounters => ({ txPackets: 0, txDropped: 0, rxPackets: 0, rxDropped: 0, qdiscDrops: 0, ...o });
const sock = (localPort: number, drops = 0, rxQueueBytes = 0) => ({ localPort, remotePort: 0, txQueueBytes: 0, rxQueueBytes, drops });

/**
 * A backhaul that carried 1000 packets down (origin → edge): the origin's TUN handed 1000 to the
 * relay, which lost 10 to modelled loss and 5 at its own socket; the far socat's socket dropped 7.
 */
function backhaulCounters(o: { inFlight?: number; unseen?: number } = {}): LinkCounters {
  const inFlight = o.inFlight ?? 0;
  const down = dir({ received: 995, packets: 985, lossDrops: 10, sent: 985 - inFlight });
  return {
    relay: { up: dir({}), down, ring: { bytes: 8 << 20, highWaterBytes: 4096 } },
    tun: { a: tun({ rxPackets: 985 - inFlight - 7 - (o.unseen ?? 0) }), b: tun({ txPackets: 1000, txDropped: 3 }) },
    sockets: { aListen: sock(1), aPeer: sock(2, 7), bListen: sock(3, 5), bPeer: sock(4) },
  };
}

describe('accountLink (every packet of a link direction, and where the rest went)', () => {
  it('balances what entered against what arrived, the modelled drops and the unmodelled ones', () => {
    const a = accountLink(backhaulCounters());
    expect(a.down).toMatchObject({
      entered: 1000,
      delivered: 978,
      modelled: { loss: 10, queueFull: 0, pdcpDiscard: 0 },
      unmodelled: { tunTx: 3, qdisc: 0, relaySocket: 5, ring: 0, socatSocket: 7, tunRx: 0 },
      inFlight: 0,
      unaccounted: 0,
    });
  });

  it('a packet lost where no counter looks shows as unaccounted, once the link is quiet', () => {
    expect(accountLink(backhaulCounters({ unseen: 2 })).down.unaccounted).toBe(2);
  });

  it('with packets still in flight nothing can be balanced: unaccounted is left out', () => {
    expect(accountLink(backhaulCounters({ inFlight: 4 })).down.unaccounted).toBeUndefined();
  });

  it("the cell's PDCP discards are modelled drops of their own, apart from a full buffer", () => {
    const c = backhaulCounters();
    c.relay.down = { ...c.relay.down, drops: 12, discardDrops: 9, received: 1007 };
    expect(accountLink(c).down.modelled).toEqual({ loss: 10, queueFull: 3, pdcpDiscard: 9 });
  });
});

describe('dropProblems and judgeRun (a run with any unmodelled drop is invalid)', () => {
  it('each place that lost packets, with the hosts on either side and what to do', () => {
    const p = dropProblems({ backhaul: accountLink(backhaulCounters()) });
    expect(p.map((x) => [x.link, x.dir, x.where, x.packets])).toEqual([
      ['backhaul', 'down', 'tunTx', 3],
      ['backhaul', 'down', 'relaySocket', 5],
      ['backhaul', 'down', 'socatSocket', 7],
    ]);
    expect(p[0]!.message).toMatch(/origin's TUN queue.*raise txqueuelen/);
    expect(p[2]!.message).toMatch(/edge's socat's receiving socket.*raise the socket buffers/);
  });

  it('modelled loss alone leaves a run valid; unmodelled drops and late relays each fail their bar', () => {
    const c = backhaulCounters();
    const clean: LinkCounters = {
      ...c,
      tun: { a: tun({ rxPackets: 985 }), b: tun({ txPackets: 995 }) },
      sockets: { aListen: sock(1), aPeer: sock(2), bListen: sock(3), bPeer: sock(4) },
    };
    expect(judgeRun({ backhaul: accountLink(clean) })).toMatchObject({ lateP99BarMs: LATE_P99_LIMIT_MS, failed: [], problems: [] });
    expect(judgeRun({ backhaul: accountLink(c) }).failed).toEqual(['unmodelled-drops']);
    const late = {
      ...clean,
      relay: {
        ...clean.relay,
        down: { ...clean.relay.down, lateness: { count: 985, p50Ms: 0.1, p99Ms: LATE_P99_LIMIT_MS + 0.7, maxMs: 6 } },
      },
    };
    expect(judgeRun({ backhaul: accountLink(late) }).failed).toEqual(['relay-late']);
    // The bar is the one named threshold, and a run records which it was judged against.
    expect(judgeRun({ backhaul: accountLink(late) }, { lateP99BarMs: LATE_P99_LIMIT_MS + 1 })).toMatchObject({
      lateP99BarMs: LATE_P99_LIMIT_MS + 1,
      failed: [],
    });
  });
});

describe("the kernel's tables", () => {
  it('parseProcNetUdp: ports and queues in hex, drops in decimal', () => {
    const text = [
      '   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops',
      ' 2768: 0100007F:E74C 00000000:0000 07 00000000:00012000 00:00000000 00000000     0        0 24513 2 0000000086ec5f8f 541',
      ' 5447: 0100007F:B1C3 0100007F:E74C 01 00000000:00000000 00:00000000 00000000     0        0 25545 2 000000000e7410e2 0',
    ].join('\n');
    expect(parseProcNetUdp(text)).toEqual([
      { localPort: 0xe74c, remotePort: 0, txQueueBytes: 0, rxQueueBytes: 0x12000, drops: 541 },
      { localPort: 0xb1c3, remotePort: 0xe74c, txQueueBytes: 0, rxQueueBytes: 0, drops: 0 },
    ]);
  });

  it("parseNstat: nstat's names from /proc/net/snmp and /proc/net/netstat; tcpCounters keeps the ones a run records", () => {
    const text = [
      'Tcp: RtoAlgorithm RetransSegs OutSegs',
      'Tcp: 1 541 16581',
      'TcpExt: SyncookiesSent TCPSackRecovery TCPTimeouts',
      'TcpExt: 0 12 3',
      '',
    ].join('\n');
    const all = parseNstat(text);
    expect(all).toEqual({
      TcpRtoAlgorithm: 1,
      TcpRetransSegs: 541,
      TcpOutSegs: 16581,
      TcpExtSyncookiesSent: 0,
      TcpExtTCPSackRecovery: 12,
      TcpExtTCPTimeouts: 3,
    });
    expect(tcpCounters(all)).toEqual({ TcpRetransSegs: 541, TcpOutSegs: 16581, TcpExtTCPSackRecovery: 12, TcpExtTCPTimeouts: 3 });
  });
});
