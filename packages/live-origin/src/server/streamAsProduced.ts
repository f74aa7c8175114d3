import type { ServerResponse } from 'node:http';
import { sliceParts } from './parseRange.js';

/** Bytes an encoder produces between startMs and endMs (one CMAF chunk), by reference. */
export interface ProducedPiece {
  buffers: readonly Buffer[];
  startMs: number;
  endMs: number;
}

/** How often the bytes produced so far are written: a 25 fps frame. */
const TICK_MS = 40;

/**
 * Writes `pieces` to `res` as a live encoder would hand them out: each piece's bytes at a constant
 * rate over its production interval, so a request for the part or segment in progress gets its
 * first bytes at once and its last when production ends (chunked transfer; the caller has sent the
 * head without a Content-Length). Ticks follow `now()`, which tests inject. Resolves with the
 * bytes written once the last piece is out, or early if the client leaves.
 */
export function streamAsProduced(res: ServerResponse, pieces: readonly ProducedPiece[], now: () => number): Promise<number> {
  const totals = pieces.map((p) => p.buffers.reduce((a, b) => a + b.length, 0));
  const sent = pieces.map(() => 0);
  let written = 0;
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    res.once('close', () => {
      clearTimeout(timer);
      resolve(written);
    });
    const tick = () => {
      if (res.destroyed) return;
      const t = now();
      let done = true;
      for (let i = 0; i < pieces.length; i++) {
        const p = pieces[i]!;
        const total = totals[i]!;
        const due = t >= p.endMs ? total : t <= p.startMs ? 0 : Math.floor((total * (t - p.startMs)) / (p.endMs - p.startMs));
        if (due > sent[i]!) {
          for (const b of sliceParts(p.buffers, sent[i]!, due - 1)) res.write(b);
          written += due - sent[i]!;
          sent[i] = due;
        }
        if (sent[i]! < total) {
          done = false;
          break; // pieces go out in order
        }
      }
      if (done) {
        res.end();
        return;
      }
      timer = setTimeout(tick, TICK_MS);
    };
    tick();
  });
}
