/**
 * Expected LTE downlink throughput from RSRP and RSRQ, a linear model in the spirit of the
 * paper's ref. [29] (throughput linear in RSRP, RSRQ):
 *
 *   th_ran [Mbit/s] = clamp(287 + 2.0 · RSRP[dBm] + 3.0 · RSRQ[dB], 0, 150)
 *
 * Anchors: RSRP −80 dBm / RSRQ −5 dB (good LTE-A cell) → 112 Mbit/s, the paper's LTE-A cap;
 * RSRP −120 dBm / RSRQ −19 dB (cell edge) → 0. Each dB of RSRP is worth 2 Mbit/s, each dB of
 * RSRQ (which also reflects load/interference) 3 Mbit/s. Divided by the number of active users
 * of the cell when the caller knows it (the paper also accounts for it).
 */
export const RAN_MODEL = { intercept: 287, perRsrpDb: 2.0, perRsrqDb: 3.0, maxMbps: 150 } as const;

export function ranThroughputFromSignal(rsrpDbm: number, rsrqDb: number, activeUsers = 1): number {
  const raw = RAN_MODEL.intercept + RAN_MODEL.perRsrpDb * rsrpDbm + RAN_MODEL.perRsrqDb * rsrqDb;
  return Math.min(RAN_MODEL.maxMbps, Math.max(0, raw)) / Math.max(1, activeUsers);
}

/** MEC 012 / TS 36.133 report ranges: RSRP index 0..97 → −140..−44 dBm (index − 141). */
export function rsrpIndexToDbm(index: number): number {
  return Math.min(97, Math.max(0, index)) - 141;
}

/** TS 36.133 RSRQ index 0..34 → −19.5..−3 dB (−20 + index / 2). */
export function rsrqIndexToDb(index: number): number {
  return -20 + Math.min(34, Math.max(0, index)) / 2;
}
