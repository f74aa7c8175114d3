/**
 * Parses /proc/net/snmp and /proc/net/netstat (pairs of lines, `Prefix: Name Name…` then
 * `Prefix: value value…`) into nstat's names: the prefix joined to the field, `TcpRetransSegs`,
 * `TcpExtTCPSackRecovery`, `IpInDiscards`.
 */
export function parseNstat(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  const lines = text.split('\n').filter((l) => l.includes(':'));
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const [prefix, ...names] = lines[i]!.trim().split(/\s+/);
    const [prefix2, ...values] = lines[i + 1]!.trim().split(/\s+/);
    if (prefix !== prefix2) {
      i -= 1; // out of step: resynchronise on the next line
      continue;
    }
    const p = prefix!.slice(0, -1);
    names.forEach((n, k) => {
      const v = Number(values[k]);
      if (Number.isFinite(v)) out[`${p}${n}`] = v;
    });
  }
  return out;
}

/**
 * What each host's TCP saw, as nstat names them: retransmissions and how loss was recovered
 * (SACK, RTO, tail-loss probes), HyStart's exits from slow start, and where the host itself
 * dropped (IP discards, TCP receive-queue and out-of-order drops). On a link the testbed models as
 * lossless, every retransmission is a loss the testbed did not model — or a spurious timeout.
 */
export const TCP_COUNTERS = [
  'TcpActiveOpens',
  'TcpPassiveOpens',
  'TcpInSegs',
  'TcpOutSegs',
  'TcpRetransSegs',
  'TcpInErrs',
  'TcpOutRsts',
  'TcpEstabResets',
  'TcpExtTCPSackRecovery',
  'TcpExtTCPRenoRecovery',
  'TcpExtTCPTimeouts',
  'TcpExtTCPLossProbes',
  'TcpExtTCPLossProbeRecovery',
  'TcpExtTCPLostRetransmit',
  'TcpExtTCPFastRetrans',
  'TcpExtTCPSlowStartRetrans',
  'TcpExtTCPSpuriousRTOs',
  'TcpExtTCPDSACKRecv',
  'TcpExtTCPRcvQDrop',
  'TcpExtTCPOFODrop',
  'TcpExtTCPBacklogDrop',
  'TcpExtTCPZeroWindowDrop',
  'TcpExtTCPHystartTrainDetect',
  'TcpExtTCPHystartTrainCwnd',
  'TcpExtTCPHystartDelayDetect',
  'TcpExtTCPHystartDelayCwnd',
  'IpInReceives',
  'IpForwDatagrams',
  'IpInDiscards',
  'IpOutDiscards',
  'IpOutNoRoutes',
] as const;

export type TcpCounters = Partial<Record<(typeof TCP_COUNTERS)[number], number>>;

/** The TCP_COUNTERS of a parsed nstat snapshot (the ones this kernel has). */
export function tcpCounters(all: Record<string, number>): TcpCounters {
  const out: TcpCounters = {};
  for (const k of TCP_COUNTERS) if (all[k] !== undefined) out[k] = all[k];
  return out;
}
