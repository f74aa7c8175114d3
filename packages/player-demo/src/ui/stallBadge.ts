import { Events, type QoeProbe } from '@ethle/qoe-probe';

/** A "stalling now" badge: shown from the probe's stall start to its end. */
export function mountStallBadge(el: HTMLElement, probe: QoeProbe): void {
  el.classList.add('stalling');
  el.textContent = 'stalling now';
  el.hidden = true;
  probe.on(Events.STALL_START, () => (el.hidden = false));
  probe.on(Events.STALL_END, () => (el.hidden = true));
}
