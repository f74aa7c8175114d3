import type { PlayerHandle } from '../createPlayer.js';

/**
 * A badge saying where the player really gets its manifest from. An edge may redirect a receiver
 * to the origin (307: ETHLE does not apply to it, paper eq. 3); the player follows silently, so
 * without this a column labelled "edge" can show the origin's stream.
 */
export function mountViaBadge(el: HTMLElement, expected: string, handle: PlayerHandle): void {
  el.classList.add('via');
  el.textContent = 'waiting for the manifest…';
  const want = new URL(expected).origin;
  handle.onManifest((url) => {
    const on = new URL(url).origin === want;
    el.dataset.on = String(on);
    el.textContent = on ? `on ${want}` : `not on the edge: redirected to ${new URL(url).origin}`;
    el.title = url;
  });
}
