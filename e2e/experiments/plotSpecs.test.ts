import * as vega from 'vega';
import { compile } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { barPlots, cdfPlots, cellVariant, parseMeanCi, type BarDatum } from './plotSpecs.js';

const SUMMARY = `cell,rtt_ms,stream,scheme,runs,startup_s,buffering_s,stalls,latency_s,x,hold_s
15M-2s @ 224 ms [virtual],224,15M-2s,e2e,3,2.93±0.05,1.50±2.00,1.00±1.00,9.24±0.76,,0.00±0.00
15M-2s @ 224 ms [virtual],224,15M-2s,auto,2,2.60±0.08,0.00±0.00,0.00±0.00,13.54±0.59,2,4.00±0.00
15M-2s @ 137 ms [virtual],137,15M-2s,auto,1,1.82,0.00,0.00,8.68,0,0.00
15M-2s @ 224 ms [chromium],224,15M-2s,e2e,1,2.84,0.00,0.00,10.10,,0.00
50M-2s @ 224 ms [virtual],224,50M-2s,hold-0,0,,,,,,
`;
const RUNS = `id,cell,rtt_ms,stream,scheme,receiver,repeat,startup_s,buffering_s,stalls,latency_s,x,hold_s,cpu_pressure,started_at,invalid,source
a,15M-2s @ 224 ms [virtual],224,15M-2s,e2e,virtual,1,2.9,0.5,1,9.0,,0,0.1,t,,results/a
b,15M-2s @ 224 ms [virtual],224,15M-2s,e2e,virtual,2,2.9,2.5,1,9.5,,0,0.1,t,"relay late: backhaul up p99 1.1 ms",results/a
c,15M-2s @ 224 ms [chromium],224,15M-2s,e2e,chromium,1,2.84,0,0,10.1,,0,0.2,t,,results/c
`;

const values = (spec: unknown): BarDatum[] => (spec as { data: { values: BarDatum[] } }).data.values;

describe('parseMeanCi', () => {
  it('reads mean±half, a lone mean and an empty field', () => {
    expect(parseMeanCi('9.24±0.76')).toEqual({ mean: 9.24, half: 0.76 });
    expect(parseMeanCi('2.08')).toEqual({ mean: 2.08, half: 0 });
    expect(parseMeanCi('')).toBeNull();
  });
  it('refuses what is not a number', () => {
    expect(() => parseMeanCi('n/a')).toThrow(/mean±half/);
  });
});

describe('cellVariant', () => {
  it('keeps the receiver and the network settings, drops stream and RTT', () => {
    expect(cellVariant('15M-2s @ 224 ms [virtual]', '15M-2s', '224')).toBe('virtual');
    expect(cellVariant('15M-2s @ 224 ms (cubic) [virtual]', '15M-2s', '224')).toBe('cubic virtual');
    expect(cellVariant('15M-2s LL @ 224 ms [chromium, dash.js]', '15M-2s', '224')).toBe('LL chromium dash.js');
  });
});

describe('barPlots', () => {
  const plots = barPlots(SUMMARY, RUNS);

  it('draws each receiver variant apart, one file per metric', () => {
    expect(plots.map((p) => p.file).sort()).toEqual(
      [
        'plot-buffering-chromium.svg',
        'plot-buffering-virtual.svg',
        'plot-latency-chromium.svg',
        'plot-latency-virtual.svg',
        'plot-startup-chromium.svg',
        'plot-startup-virtual.svg',
      ].sort(),
    );
    const chromium = values(plots.find((p) => p.file === 'plot-buffering-chromium.svg')!.spec);
    expect(new Set(chromium.map((d) => d.scheme))).toEqual(new Set(['e2e']));
  });

  it('clips the interval at 0 and keeps its top', () => {
    const d = values(plots.find((p) => p.file === 'plot-buffering-virtual.svg')!.spec).find(
      (v) => v.kind === 'mean' && v.scheme === 'e2e',
    )!;
    expect(d).toMatchObject({ value: 1.5, lo: 0, hi: 3.5, rtt: '224 ms', runs: 3 });
  });

  it('draws valid runs as dots and leaves invalid runs and empty cells out', () => {
    const v = values(plots.find((p) => p.file === 'plot-buffering-virtual.svg')!.spec);
    expect(v.filter((d) => d.kind === 'run').map((d) => d.value)).toEqual([0.5]);
    expect(v.some((d) => d.stream === '50M-2s')).toBe(false);
  });

  it('orders RTTs by number, not as text', () => {
    const spec = plots.find((p) => p.file === 'plot-latency-virtual.svg')!.spec as { facet: { row: { sort: string[] } } };
    expect(spec.facet.row.sort).toEqual(['137 ms', '224 ms']);
  });

  it('refuses a summary in another format', () => {
    expect(() => barPlots('cell,scheme,runs,throughput_mbps\nx,auto,1,2\n')).toThrow(/rtt_ms/);
  });

  it('renders to SVG with vega, no canvas needed', async () => {
    const view = new vega.View(vega.parse(compile(plots[0]!.spec).spec), { renderer: 'none' });
    const svg = await view.toSVG();
    view.finalize();
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('224 ms');
  });
});

describe('cdfPlots', () => {
  const CDF = `stream,rtt_ms,backhaul_mbps,cell,join,n,scheme,metric,value,fraction
15M-2s,224,60,per-user,sync,4,auto,startup_s,1.4,0.5
15M-2s,224,60,per-user,sync,4,auto,startup_s,2.0,1
15M-2s,224,60,per-user,sync,4,e2e,startup_s,4.0,1
15M-2s,224,60,per-user,sync,4,e2e,buffering_s,3.0,1
`;
  it('one file per metric, each line starting from 0 at its smallest value', () => {
    const plots = cdfPlots(CDF);
    expect(plots.map((p) => p.file)).toEqual(['plot-cdf-startup.svg', 'plot-cdf-buffering.svg']);
    const v = (plots[0]!.spec as { data: { values: { scheme: string; value: number; fraction: number; panel: string }[] } }).data.values;
    expect(v.filter((d) => d.scheme === 'auto').map((d) => [d.value, d.fraction])).toEqual([
      [1.4, 0],
      [1.4, 0.5],
      [2.0, 1],
    ]);
    expect(v[0]!.panel).toBe('15M-2s, N 4, per-user, sync, 60 Mbit/s');
  });
  it('refuses a CSV that is not experiment:scale’s', () => {
    expect(() => cdfPlots('a,b\n1,2\n')).toThrow(/scale/);
  });
});
