/** Polls `check` until it returns a value other than undefined/false, or rejects after `timeoutMs` naming `what`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  everyMs = 50,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The newest media sequence number listed by an HLS media playlist. */
async function newestMsn(url: string): Promise<number> {
  const text = await (await fetch(url)).text();
  const seq = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? NaN);
  return seq + (text.match(/^#EXTINF/gm)?.length ?? 0) - 1;
}

/**
 * Resolves just after the playlist at `url` lists a new segment: a player started then sees a
 * playlist whose edge is fresh, so its start offset is not blurred by up to one segment of age.
 */
export async function nextSegmentListed(url: string, timeoutMs = 15_000): Promise<void> {
  const before = await newestMsn(url);
  await waitFor('a new segment in the playlist', async () => (await newestMsn(url)) > before, timeoutMs, 25);
}

/** `promise`, or a rejection naming `what` after `timeoutMs` (the timer is cleared either way). */
export async function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
