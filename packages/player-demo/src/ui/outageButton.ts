/** What the outage button reports to the page (and to tests, via window.demo.outages). */
export interface Outage {
  /** When the origin was paused and resumed (epoch ms); `end` absent while it lasts. */
  start: number;
  end?: number;
}

/**
 * The "origin outage" button: pauses the live origin's segment responses for `seconds` with its
 * admin switch (`POST /admin/{stream}/pause`, then `/resume`; production and manifests go on), as
 * a backhaul stall would. The edge rides it out on the segments it holds; a direct player has only
 * its own buffer. Leaving the page mid-outage resumes the origin (a beacon), so no stream stays stuck.
 */
export function mountOutageButton(
  el: HTMLElement,
  o: { originUrl: string; stream: string; seconds: number; onChange: (outages: readonly Outage[]) => void },
): void {
  el.innerHTML = `<button type="button" class="outage" title="The origin's segment responses hang for this long (its manifests go on), as a stalled backhaul would: the edge plays on from the segments it holds, the direct player only from its own buffer">origin outage</button> for <input type="number" min="1" max="60" step="1" value="${o.seconds}" aria-label="outage seconds"> s <span class="outage-status" role="status"></span>`;
  const button = el.querySelector('button')!;
  const input = el.querySelector('input')!;
  const status = el.querySelector<HTMLElement>('.outage-status')!;
  const admin = (what: 'pause' | 'resume') => `${o.originUrl}/admin/${encodeURIComponent(o.stream)}/${what}`;
  const outages: Outage[] = [];
  let current: Outage | undefined;
  const resumeOnLeave = () => {
    if (current !== undefined) navigator.sendBeacon(admin('resume'));
  };
  addEventListener('pagehide', resumeOnLeave);

  button.addEventListener('click', async () => {
    const seconds = Number(input.value);
    if (!Number.isFinite(seconds) || seconds < 1 || seconds > 60) {
      status.textContent = 'give 1 to 60 seconds';
      return;
    }
    button.disabled = true;
    try {
      await post(admin('pause'));
      current = { start: Date.now() };
      outages.push(current);
      o.onChange(outages);
      const until = current.start + seconds * 1000;
      await new Promise<void>((resolve) => {
        const tick = () => {
          const left = until - Date.now();
          status.textContent = `origin paused: segment responses hang for ${(Math.max(0, left) / 1000).toFixed(0)} s more`;
          if (left <= 0) resolve();
          else setTimeout(tick, Math.min(250, left));
        };
        tick();
      });
      await post(admin('resume'));
      current.end = Date.now();
      current = undefined;
      o.onChange(outages);
      status.textContent = `origin resumed after ${seconds} s`;
    } catch (e) {
      status.textContent = `outage switch failed: ${(e as Error).message}`;
      status.classList.add('error');
    } finally {
      button.disabled = false;
    }
  });
}

async function post(url: string): Promise<void> {
  let r: Response;
  try {
    r = await fetch(url, { method: 'POST' });
  } catch {
    throw new Error(`no answer from ${new URL(url).origin} (is the origin running?)`);
  }
  if (!r.ok) throw new Error(`${url} answered ${r.status}: ${(await r.text()).trim()}`);
}
