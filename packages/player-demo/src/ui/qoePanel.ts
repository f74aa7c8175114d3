import { Events, type QoeProbe } from '@ethle/qoe-probe';

const fmt = (v: number | null | undefined, digits = 1, unit = 's') =>
  v === null || v === undefined ? '–' : `${v.toFixed(digits)} ${unit}`;

/** A live QoE panel: startup, stalls, true latency vs distance to the manifest's edge, hold, throughput. */
export function mountQoePanel(el: HTMLElement, probe: QoeProbe): void {
  el.classList.add('qoe');
  el.innerHTML = `<dl>
    <dt>startup</dt><dd data-k="startup">–</dd>
    <dt>stalls</dt><dd data-k="stalls">0</dd>
    <dt title="the wall clock now minus when the frame on screen was produced at the origin: what a viewer lags behind the live event">true latency</dt><dd data-k="latency">–</dd>
    <dt title="how far the player plays behind the newest segment of the manifest it got (its own live offset); an edge's manifest already ends x segments early, so the hold is not in this number">distance to manifest edge</dt><dd data-k="edge">–</dd>
    <dt title="the latency the edge's hold adds, as the edge declared it on the manifest (X-Ethle-Hold-Seconds): x × segment length, plus, for LL-HLS held in whole segments, the player's fallback from PART-HOLD-BACK to HOLD-BACK">held by the edge</dt><dd data-k="hold">–</dd>
    <dt>last video segment</dt><dd data-k="seg">–</dd>
  </dl>`;
  const set = (k: string, v: string) => {
    el.querySelector<HTMLElement>(`[data-k="${k}"]`)!.textContent = v;
  };
  probe.on(Events.STARTUP, (s) => set('startup', fmt(s.startupMs / 1000, 2)));
  probe.on(Events.STALL_END, () => {
    const r = probe.report();
    set('stalls', `${r.stalls.count} (${fmt(r.stalls.totalMs / 1000)})`);
  });
  probe.on(Events.LATENCY, (l) => {
    set('latency', fmt(l.trueLatency));
    set('edge', fmt(l.edgeDistance));
    set('hold', fmt(l.holdSeconds));
  });
  // The video segment: dash.js also loads the audio track's (tiny) segments, which would otherwise
  // show here half the time. hls.js names its muxed track 'main'.
  probe.on(Events.SEGMENT, (s) => {
    if (s.kind !== 'media' || s.track === 'audio') return;
    set('seg', `${(s.bytes / 1e6).toFixed(2)} MB at ${(s.throughputBps / 1e6).toFixed(1)} Mbit/s`);
    el.querySelector<HTMLElement>('[data-k="seg"]')!.title = s.url;
  });
}
