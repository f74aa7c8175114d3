import { streamTag, type RadioEstimate, type SessionClaims } from '@ethle/core';
import type { EdgeContext } from '../../EdgeContext.js';
import type { ReceivedToken } from './readSessionToken.js';

type HandoverContext = Pick<EdgeContext, 'policy' | 'events' | 'handover' | 'now'>;

/**
 * Fleet handover of a receiver arriving from another edge. A token without state for this stream
 * (hls.js: the multivariant playlist's), issued by a live peer, for a session unknown here: that
 * peer is asked for the session's state. Then, with a valid, unexpired token for this stream and
 * a session unknown here, the session is filed with its group, requests, last measurement and x
 * before the policy decides on it. A promise only while a peer is asked: a receiver without a
 * token, or with one already answered, is decided without awaiting (hot path).
 */
export function adoptHandedSession(
  ctx: HandoverContext,
  received: ReceivedToken,
  streamKey: string,
  session: string,
): Promise<void> | undefined {
  const { param, issuer, handed } = received;
  if (handed === undefined && issuer === undefined) return undefined;
  const tag = streamTag(streamKey);
  const { policy, handover } = ctx;
  if (
    issuer !== undefined &&
    param !== null &&
    handover !== undefined &&
    handed?.stream !== tag &&
    handover.canPull(param, issuer) &&
    policy.sessionState(streamKey, session) === undefined
  ) {
    return handover.pull(param, issuer, streamKey, ctx.now).then((pulled) => adopt(ctx, pulled ?? handed, tag, streamKey, session));
  }
  adopt(ctx, handed, tag, streamKey, session);
  return undefined;
}

function adopt(ctx: HandoverContext, handed: SessionClaims | undefined, tag: string, streamKey: string, session: string): void {
  if (handed === undefined || handed.stream !== tag) return;
  if (
    !ctx.policy.adopt(
      streamKey,
      session,
      { group: handed.group, requests: handed.requests, estimate: handedEstimate(handed), x: handed.x },
      ctx.now(),
    )
  )
    return;
  ctx.events.emit('session-adopted', {
    session,
    stream: streamKey,
    from: handed.issuer,
    group: handed.group,
    x: handed.x,
    requests: handed.requests,
  });
}

/** The last radio measurement a token carried, as evidence here (one measurement, by another edge). */
function handedEstimate(c: SessionClaims): RadioEstimate | undefined {
  if (c.radioBps === undefined) return undefined;
  return {
    bps: c.radioBps,
    source: 'measured',
    evidence: {
      rniBps: undefined,
      measuredBps: c.radioBps,
      measuredBytes: undefined,
      segmentBytes: 0,
      mtpKbps: undefined,
      blMs: undefined,
      segmentsDownloaded: 0,
      skipped: [],
    },
  };
}
