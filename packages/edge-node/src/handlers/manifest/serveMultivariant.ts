import { addHlsSteering } from '@ethle/core';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EdgeContext } from '../../EdgeContext.js';
import { HEADERS } from '../../http/HEADERS.js';
import type { LiveStream, Version } from '../../stream/LiveStream.js';
import type { ManifestHeaders } from './manifestHeaders.js';
import { safeSid } from './receiverSession.js';
import { sendManifest } from './sendManifest.js';
import { signedToken } from './signedToken.js';

/**
 * An HLS multivariant playlist, never held. Its variant URIs carry a session token so each
 * receiver's media playlist requests are recognisable; issued here when the receiver has none
 * (cheap: a multivariant playlist is fetched once). In a fleet, the steering server and this
 * edge's pathway, so players fail over to peers.
 */
export async function serveMultivariant(
  ctx: Pick<EdgeContext, 'metrics' | 'now' | 'sessionTokens' | 'fleet'>,
  req: IncomingMessage,
  res: ServerResponse,
  stream: LiveStream,
  version: Version,
  sid: string | undefined,
  cmcdSid: string | undefined,
  headers: ManifestHeaders,
): Promise<void> {
  const session = sid ?? safeSid(cmcdSid) ?? randomBytes(9).toString('base64url');
  // With a fleet secret the variant URIs carry a signed token of the session (its id, no stream
  // state yet), so a receiver that moves keeps its id at the next edge.
  const uriToken =
    (await signedToken(
      ctx.sessionTokens,
      { sid: session, stream: '', group: undefined, x: 0, requests: 0, radioBps: undefined },
      ctx.now(),
    )) ?? session;
  const held = stream.held(version, 0, uriToken);
  headers[HEADERS.session] = session;
  headers[HEADERS.holdSegments] = '0';
  headers[HEADERS.holdSeconds] = '0';
  const body =
    ctx.fleet === undefined
      ? held.body
      : Buffer.from(addHlsSteering(held.text, { serverUri: ctx.fleet.serverUri, pathwayId: ctx.fleet.pathway }), 'utf8');
  sendManifest(res, req, headers, body, ctx.metrics);
}
