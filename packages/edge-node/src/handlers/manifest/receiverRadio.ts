import { chooseRadioEstimate, type RadioEstimate } from '@ethle/core';
import type { IncomingMessage } from 'node:http';
import type { EdgeContext } from '../../EdgeContext.js';
import type { CmcdHints } from '../../radio/readCmcd.js';
import { receiverKey } from '../../radio/receiverKey.js';

/** A fixed x needs no radio estimate (hot path: nothing is measured or chosen per request). */
export const FIXED_HOLD_RADIO: RadioEstimate = chooseRadioEstimate({ segmentBytes: 1, segmentsDownloaded: 0, defaultBps: 1 });

/**
 * th_ran of a receiver, best source first (chooseRadioEstimate): RNI by its address, the edge's
 * own measurement of it once it covers `segmentBytes`, credible CMCD, the configured default.
 */
export function receiverRadio(
  ctx: Pick<EdgeContext, 'config' | 'now' | 'radio' | 'rni'>,
  req: IncomingMessage,
  query: URLSearchParams,
  ip: string,
  cmcd: CmcdHints,
  segmentBytes: number | undefined,
): RadioEstimate {
  const rniMbps = ctx.rni?.lookup(ip, ctx.now());
  const measured = ctx.radio.estimate(receiverKey(req, query));
  return chooseRadioEstimate({
    ...(rniMbps === undefined ? {} : { rniBps: rniMbps * 1e6 }),
    ...(measured === undefined ? {} : { measured: { bps: measured.mbps * 1e6, bytes: measured.bytes } }),
    segmentBytes: segmentBytes ?? 1,
    cmcd: {
      ...(cmcd.mtpMbps === undefined ? {} : { mtpKbps: cmcd.mtpMbps * 1000 }),
      ...(cmcd.blMs === undefined ? {} : { blMs: cmcd.blMs }),
    },
    segmentsDownloaded: measured?.samples ?? 0,
    defaultBps: ctx.config.defaultRanMbps * 1e6,
  });
}
