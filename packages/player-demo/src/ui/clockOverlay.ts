import { Events, type QoeProbe } from '@ethle/qoe-probe';

const time = (ms: number) => new Date(ms).toISOString().slice(11, 21);

/**
 * A wall-clock overlay on the video: when the frame on screen was produced at the origin (the
 * probe's true latency sample, carried forward with the playhead) next to the clock now, so the
 * latency is visible as the gap between the two.
 */
export function mountClockOverlay(el: HTMLElement, probe: QoeProbe, video: HTMLVideoElement): void {
  el.classList.add('clock');
  let anchor: { produced: number; currentTime: number } | undefined;
  probe.on(Events.LATENCY, (l) => {
    if (l.trueLatency !== null) anchor = { produced: l.at - l.trueLatency * 1000, currentTime: video.currentTime };
  });
  const draw = () => {
    const now = Date.now();
    const produced = anchor === undefined ? undefined : anchor.produced + (video.currentTime - anchor.currentTime) * 1000;
    el.textContent = `now ${time(now)}${produced === undefined ? '' : ` · frame from ${time(produced)} (${((now - produced) / 1000).toFixed(1)} s ago)`}`;
    requestAnimationFrame(draw);
  };
  draw();
}
