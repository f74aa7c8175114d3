/**
 * Why a manifest URL cannot be played, in the user's words, or null if it answers: a dead server,
 * or a stream the server does not have. Checked before a player starts, so the page says it
 * instead of showing a black video.
 */
export async function checkSource(url: string, what: string): Promise<string | null> {
  let r: Response;
  try {
    r = await fetch(url, { cache: 'no-store' });
  } catch {
    return `no answer from the ${what} at ${new URL(url).origin}: is it running?`;
  }
  if (r.status === 404) return `the ${what} has no stream at ${new URL(url).pathname} (404)`;
  if (!r.ok) return `the ${what} answered ${r.status} for ${url}`;
  return null;
}
