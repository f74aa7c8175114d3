/** One experiment run: a backhaul RTT × stream × RAN profile × scheme × repeat (issue 6). */
export interface Scenario {
  /** Backhaul RTT, ms (paper: US West 137, Japan 224, Australia 302, India 334). */
  rttMs: number;
  /** Origin stream, e.g. `15M-2s`. */
  stream: string;
  /** `lte-a` (112 Mbit/s, 20–180 ms fluctuating RTT), `none` (a 1 ms link), or `trace:<mahimahi .down file>`. */
  ran: string;
  /**
   * `e2e` (straight to the origin, routed through the edge host), `hold-0`, `hold-N` (whole
   * segments), `auto`, or with `ll` `parts-N` (the edge holds N LL-HLS parts / LL-DASH chunks).
   */
  scheme: string;
  /** Play the origin's low-latency renditions (LL-HLS `ll/index.m3u8`, LL-DASH `ll.mpd`) in the players' LL modes. */
  ll?: boolean;
  repeat: number;
  durationS: number;
  player: 'hls' | 'dash';
  /** TCP congestion control on every host (default bbr, as the paper's sources). */
  cc?: 'bbr' | 'cubic' | 'reno';
  /** Maximum TCP buffer on every host (bytes); undefined = Linux's defaults (4 MB send). */
  tcpBufferBytes?: number;
}

export const scenarioId = (s: Scenario) =>
  `${s.stream}-${s.rttMs}ms-${s.ran.replace(/[^\w.-]+/g, '_')}${s.cc && s.cc !== 'bbr' ? `-${s.cc}` : ''}${s.tcpBufferBytes ? `-buf${Math.round(s.tcpBufferBytes / 2 ** 20)}M` : ''}${s.ll ? '-ll' : ''}-${s.scheme}-${s.player}-r${s.repeat}`;

/** The cross product of comma-separated lists, as `npm run experiment -- …` and the env describe it. */
export function matrix(o: { rtt: string; stream: string; ran: string; scheme: string; repeats: number; durationS: number; player: string; cc?: string; tcpBuffers?: string; ll?: boolean }): Scenario[] {
  const tcpBufferBytes = parseBytes(o.tcpBuffers);
  const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
  const out: Scenario[] = [];
  for (const rtt of list(o.rtt))
    for (const stream of list(o.stream))
      for (const ran of list(o.ran))
        for (const player of list(o.player))
          for (let repeat = 1; repeat <= o.repeats; repeat++)
            for (const scheme of list(o.scheme)) {
              if (!/^(e2e|auto|hold-\d+|parts-\d+)$/.test(scheme)) throw new Error(`unknown scheme ${scheme} (e2e, auto, hold-N, parts-N)`);
              if (scheme.startsWith('parts-') && !o.ll) throw new Error(`${scheme} holds LL parts: give --ll`);
              const cc = (o.cc ?? 'bbr') as Scenario['cc'];
              if (!['bbr', 'cubic', 'reno'].includes(cc!)) throw new Error(`unknown congestion control ${cc}`);
              out.push({ rttMs: Number(rtt), stream, ran, scheme, repeat, durationS: o.durationS, player: player === 'dash' ? 'dash' : 'hls', cc, ...(tcpBufferBytes ? { tcpBufferBytes } : {}), ...(o.ll ? { ll: true } : {}) });
            }
  return out;
}

/** The matrix from EXP_* environment variables (the experiment command sets them). */
export function matrixFromEnv(env: NodeJS.ProcessEnv = process.env): Scenario[] {
  return matrix({
    rtt: env.EXP_RTT ?? '224',
    stream: env.EXP_STREAM ?? '15M-2s',
    ran: env.EXP_RAN ?? 'lte-a',
    scheme: env.EXP_SCHEME ?? 'e2e,hold-0,auto',
    repeats: Number(env.EXP_REPEATS ?? 1),
    durationS: Number(env.EXP_DURATION ?? 60),
    player: env.EXP_PLAYER ?? 'hls',
    cc: env.EXP_CC ?? 'bbr',
    tcpBuffers: env.EXP_TCP_BUFFERS,
    ll: env.EXP_LL === '1',
  });
}

/** `64M`, `32m`, `4194304` → bytes; empty → undefined (the hosts' defaults). */
function parseBytes(s: string | undefined): number | undefined {
  if (s === undefined || s === '') return undefined;
  const m = /^(\d+)([kKmM]?)$/.exec(s.trim());
  if (!m) throw new Error(`--tcp-buffers wants bytes, e.g. 64M, got ${s}`);
  return Number(m[1]) * (m[2] === '' ? 1 : /k/i.test(m[2]!) ? 1024 : 2 ** 20);
}
