import { EthleError } from '../errors/EthleError.js';
import { mathisThroughputBps } from './mathisThroughputBps.js';
import { requireRange } from './validate.js';
import { windowCapBps } from './windowCapBps.js';

export interface BackhaulCapInput {
  /** A per-flow backhaul rate from elsewhere (the slow-start model, or what the edge measured), bits/s. */
  bps: number;
  /** Backhaul RTT, seconds; required when a window or a loss rate is given. */
  rttSeconds?: number;
  receiveWindowBytes?: number;
  sendWindowBytes?: number;
  /** Measured loss rate on the backhaul flows, [0, 1]. */
  lossRate?: number;
  mssBytes?: number;
}

export interface CappedBackhaul {
  bps: number;
  /** 'input' when neither cap is below the given rate. */
  limitedBy: 'input' | 'window' | 'loss';
}

/**
 * min(rate, window/RTT, Mathis(RTT, loss)): what one flow can carry whatever the rate came from.
 * A measured rate from warm connections can exceed the slow-start model, never the window.
 */
export function capBackhaulBps(input: BackhaulCapInput): CappedBackhaul {
  let bps = input.bps;
  let limitedBy: CappedBackhaul['limitedBy'] = 'input';
  const windows = input.receiveWindowBytes !== undefined || input.sendWindowBytes !== undefined;
  const loss = input.lossRate !== undefined && requireRange('lossRate', input.lossRate, 0, 1) > 0;
  if (!windows && !loss) return { bps, limitedBy };
  if (input.rttSeconds === undefined) {
    throw new EthleError('ERR_MODEL_INVALID_INPUT', 'rttSeconds is required with a window or a loss rate', {
      field: 'rttSeconds',
      value: undefined,
    });
  }
  const window = windowCapBps({
    rttSeconds: input.rttSeconds,
    receiveWindowBytes: input.receiveWindowBytes,
    sendWindowBytes: input.sendWindowBytes,
  });
  if (window !== undefined && window < bps) {
    bps = window;
    limitedBy = 'window';
  }
  if (loss) {
    const mathis = mathisThroughputBps({ rttSeconds: input.rttSeconds, lossRate: input.lossRate!, mssBytes: input.mssBytes });
    if (mathis < bps) {
      bps = mathis;
      limitedBy = 'loss';
    }
  }
  return { bps, limitedBy };
}
