import { Writable } from 'node:stream';
import { pino, type Level } from 'pino';

/** A pino logger whose lines (parsed) the test can read. */
export function capturedLogger(level: Level = 'debug') {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString('utf8').split('\n')) if (l !== '') lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { logger: pino({ level }, stream), lines };
}
