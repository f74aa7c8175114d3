import type { IncomingMessage } from 'node:http';
import { CollectorError } from '../errors/CollectorError.js';

/** The request body as text, refusing it past `max` bytes (by Content-Length before reading, else while reading). */
export async function readBody(req: IncomingMessage, max: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max)
    throw new CollectorError('COLLECTOR_ERR_TOO_LARGE', `the body is ${declared} bytes; at most ${max}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > max) throw new CollectorError('COLLECTOR_ERR_TOO_LARGE', `the body is over ${max} bytes`);
    chunks.push(c);
  }
  return Buffer.concat(chunks).toString('utf8');
}
