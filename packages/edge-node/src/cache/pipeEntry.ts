import type { ServerResponse } from 'node:http';
import type { CacheEntry } from './CacheEntry.js';

/**
 * Stream an entry's body to one receiver while the origin fetch may still be writing it.
 * Each reader keeps its own cursor into the shared chunk list and waits for its own socket's
 * 'drain', so one slow receiver never holds back the others or the origin fetch.
 * If the origin body fails mid-way the response is destroyed: the player sees a failed
 * transfer, never a short segment passed off as complete. Headers must already be sent.
 * Resolves with the number of bytes written when the response finished or was aborted.
 */
export function pipeEntry(entry: CacheEntry, res: ServerResponse): Promise<number> {
  return new Promise((resolve) => {
    let cursor = 0;
    let written = 0;
    let waitingDrain = false;
    let done = false;
    entry.readers += 1;

    const finish = (): void => {
      if (done) return;
      done = true;
      entry.readers -= 1;
      unsubscribe();
      res.off('close', onClose);
      resolve(written);
    };
    const onClose = (): void => finish();

    const pump = (): void => {
      if (done || waitingDrain) return;
      if (entry.state === 'failed') {
        res.destroy(entry.error);
        finish();
        return;
      }
      const chunks = entry.chunks;
      // Hot path: cork so a burst of chunks goes out in one writev.
      res.cork();
      while (cursor < chunks.length) {
        const chunk = chunks[cursor++]!;
        written += chunk.length;
        if (!res.write(chunk)) {
          waitingDrain = true;
          res.once('drain', () => {
            waitingDrain = false;
            pump();
          });
          break;
        }
      }
      process.nextTick(() => res.uncork());
      if (!waitingDrain && entry.state === 'complete' && cursor >= chunks.length) {
        res.end();
        finish();
      }
    };

    const unsubscribe = entry.subscribe(pump);
    res.on('close', onClose);
    pump();
  });
}
