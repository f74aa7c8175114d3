import { DEFAULT_SENDER_PRIORITY } from '@ethle/netlab';
import { AUTO_VARIANTS } from './paperHoldX.js';
import { parseLadderName } from './parseLadderName.js';
import { checkSourceUrl, sourceName } from './probeSource.js';

/** One experiment run: a backhaul RTT × stream × RAN profile × scheme × repeat (issue 6). */
export interface Scenario {
  /** Backhaul RTT, ms (paper: US West 137, Japan 224, Australia 302, India 334). */
  rttMs: number;
  /**
   * Origin stream, e.g. `15M-2s`, or an ABR ladder, e.g. `15M+50M-2s` (parseLadderName: the
   * multivariant playlist or the MPD over those streams, played with the player's default ABR).
   */
  stream: string;
  /**
   * `lte-a` (a shared 112 Mbit/s cell at 50 % load: 20–180 ms RTT under load), `lte-a-walk` (the
   * earlier model: 112 Mbit/s cap, one-way delay a 10–90 ms walk), `none` (a 1 ms link), or
   * `trace:<mahimahi .down file>`.
   */
  ran: string;
  /**
   * `e2e` (straight to the origin, routed through the edge host), `hold-0`, `hold-N` (whole
   * segments), `auto`, or with `ll` `parts-N` (the edge holds N LL-HLS parts / LL-DASH chunks);
   * any of them but e2e with `-wN`: the edge as a parent tier and N worker edges on its box.
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
  /** Who plays: real Chromium + hls.js/dash.js with the QoE probe (default, the reference) or virtual receivers (packages/virtual-player). */
  receiver?: 'chromium' | 'virtual';
  /** Receivers in the one cell (default 1; more need `receiver: 'virtual'`). */
  receivers?: number;
  /** How the cell's receivers share the radio: a link each (`per-user`, default) or one 112 Mbit/s cap for all (`shared`; needs `lte-a-walk`: the LTE-A cell model schedules one user). */
  cell?: 'shared' | 'per-user';
  /** Backhaul rate cap, Mbit/s each way (default none). */
  backhaulMbps?: number;
  /** Random loss on the backhaul, % of packets each way (default none): what the model's Mathis cap is for. */
  backhaulLossPct?: number;
  /** When the receivers join: all within 2 s (`sync`, default — the worst case for on-off traffic) or evenly over one segment duration (`spread`). */
  join?: 'sync' | 'spread';
  /**
   * Departure lateness injected into the relays on purpose (netlab LatenessInjection, seeded from
   * the repeat: every scheme of a repeat meets the same freezes): a p99 target and VM-like stalls
   * of 5–10 ms per minute, into both links' relays or one (`link`). For the experiment that sets
   * the lateness bar (docs/netlab.md).
   */
  injectLateness?: { p99Ms: number; stallsPerMinute: number; link?: 'ran' | 'backhaul' };
  /** The lateness bar the run is judged against, ms (default netlab's LATE_P99_LIMIT_MS). */
  lateBarMs?: number;
  /** SCHED_FIFO priority of the relays' sending threads (netlab `senderPriority`; default its DEFAULT_SENDER_PRIORITY, 60). */
  senderPriority?: number;
  /**
   * The user's own live source (`--source URL`) instead of the testbed's origin: a relaying origin
   * in the origin namespace serves it (live-origin `relay`); `stream` is then its name.
   */
  source?: { url: string };
}

// `-wN`: the edge as a parent tier + N worker edges (`ethle-edge serve --workers N`).
const SCHEME = new RegExp(`^(e2e|(auto|${Object.keys(AUTO_VARIANTS).join('|')}|hold-\\d+|hold-paper|parts-\\d+)(-w\\d+)?)$`);

/** Join offsets of a scenario's receivers, ms: evenly over 2 s (`sync`) or over one segment (`spread`). */
export function joinOffsetsMs(s: Pick<Scenario, 'receivers' | 'join'>, segmentSeconds: number): number[] {
  const n = s.receivers ?? 1;
  const window = s.join === 'spread' ? segmentSeconds * 1000 : 2000;
  return Array.from({ length: n }, (_, i) => (n === 1 ? 0 : Math.round((i * window) / n)));
}

/**
 * The RAN as ids and merged cells name it: a trace by its file name, not the directory it was
 * read from on the machine that ran it (`trace:/any/dir/ATT.down` → `trace:ATT.down`).
 */
export const ranLabel = (ran: string): string => (ran.startsWith('trace:') ? `trace:${ran.slice('trace:'.length).split('/').pop()}` : ran);

export const scenarioId = (s: Scenario) =>
  `${s.stream}-${s.rttMs}ms-${ranLabel(s.ran).replace(/[^\w.-]+/g, '_')}${s.cc && s.cc !== 'bbr' ? `-${s.cc}` : ''}${s.tcpBufferBytes ? `-buf${Math.round(s.tcpBufferBytes / 2 ** 20)}M` : ''}${s.ll ? '-ll' : ''}` +
  `${s.backhaulMbps ? `-bh${s.backhaulMbps}` : ''}${s.backhaulLossPct ? `-bhloss${s.backhaulLossPct}` : ''}${injectId(s.injectLateness)}${s.senderPriority !== undefined && s.senderPriority !== DEFAULT_SENDER_PRIORITY ? `-sp${s.senderPriority}` : ''}${(s.receivers ?? 1) > 1 ? `-n${s.receivers}-${s.cell ?? 'per-user'}-${s.join ?? 'sync'}` : ''}-${s.scheme}-${s.player}${s.receiver === 'virtual' ? '-virtual' : ''}-r${s.repeat}`;

/** `-inj2ms-3spm[-ran]`: injected lateness (p99 2 ms, 3 stalls per minute, the RAN's relay only) in a run's id; none: empty. */
const injectId = (l: Scenario['injectLateness']) =>
  l ? `-inj${l.p99Ms}ms${l.stallsPerMinute ? `-${l.stallsPerMinute}spm` : ''}${l.link ? `-${l.link}` : ''}` : '';

/**
 * `--inject-lateness off,0,1,2,5 --inject-stalls 3`: the levels of injected lateness, each a p99
 * target in ms (0: none, stalls only) with the stalls per minute on top; `off` injects nothing.
 * An empty list is `off`, or `0` when stalls are asked for.
 */
function injectLevels(
  levels: string | undefined,
  stalls: string | undefined,
  links: string | undefined,
): (Scenario['injectLateness'] | undefined)[] {
  const stallsPerMinute = stalls ? Number(stalls) : 0;
  const linkList = (links ?? 'both')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const l of linkList)
    if (l !== 'both' && l !== 'ran' && l !== 'backhaul')
      throw new Error(`--inject-link wants both, ran or backhaul (comma-separated), got ${l}`);
  if (!(Number.isFinite(stallsPerMinute) && stallsPerMinute >= 0 && stallsPerMinute <= 600))
    throw new Error(`--inject-stalls wants stalls per minute in [0, 600], got ${stalls}`);
  const list = (levels ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (list.length === 0) list.push(stallsPerMinute > 0 ? '0' : 'off');
  return list
    .map((l) => {
      if (l === 'off') return undefined;
      const p99Ms = Number(l);
      if (!(Number.isFinite(p99Ms) && p99Ms >= 0 && p99Ms <= 100))
        throw new Error(`--inject-lateness wants off or p99 targets in ms in [0, 100], got ${l}`);
      if (p99Ms === 0 && stallsPerMinute === 0)
        throw new Error('--inject-lateness 0 injects stalls only: give --inject-stalls N too, or use off');
      return linkList.map((link) => ({ p99Ms, stallsPerMinute, ...(link === 'both' ? {} : { link: link as 'ran' | 'backhaul' }) }));
    })
    .flat();
}

/** The cross product of comma-separated lists, as `npm run experiment -- …` and the env describe it. */
export function matrix(o: {
  rtt: string;
  stream: string;
  ran: string;
  scheme: string;
  /** How many repeats (3: repeats 1–3), or which ("4-5": repeats 4 and 5, to add to an earlier 1–3). */
  repeats: number | string;
  durationS: number;
  player: string;
  cc?: string;
  tcpBuffers?: string;
  receiver?: string;
  receivers?: string;
  cell?: string;
  backhaulMbps?: string;
  /** Backhaul loss, % each way. */
  backhaulLoss?: string;
  join?: string;
  ll?: boolean;
  /** Injected lateness levels (`off,0,1,2,5`) and stalls per minute on each (injectLevels). */
  injectLateness?: string;
  injectStalls?: string;
  /** Which links' relays take the injected lateness: `both` (default), `ran`, `backhaul`, or a list. */
  injectLink?: string;
  /** The lateness bar, ms. */
  lateBar?: string;
  /** The relays' sending threads' SCHED_FIFO priority. */
  senderPriority?: string;
  /** The user's live source (an http:// HLS playlist or DASH MPD), and the name its runs get (default from the manifest's file name). */
  source?: string;
  sourceName?: string;
}): Scenario[] {
  const tcpBufferBytes = parseBytes(o.tcpBuffers);
  const receiver = o.receiver ?? 'chromium';
  if (receiver !== 'chromium' && receiver !== 'virtual') throw new Error(`--receiver must be chromium or virtual, got ${receiver}`);
  const cell = o.cell ?? 'per-user';
  if (cell !== 'shared' && cell !== 'per-user') throw new Error(`--cell must be shared or per-user, got ${cell}`);
  const backhaulMbps = o.backhaulMbps ? Number(o.backhaulMbps) : undefined;
  if (backhaulMbps !== undefined && !(backhaulMbps > 0 && backhaulMbps <= 10_000))
    throw new Error(`--backhaul-mbps must be in (0, 10000], got ${o.backhaulMbps}`);
  const backhaulLossPct = o.backhaulLoss ? Number(o.backhaulLoss) : undefined;
  if (backhaulLossPct !== undefined && !(backhaulLossPct > 0 && backhaulLossPct < 50))
    throw new Error(`--backhaul-loss must be a percentage in (0, 50), got ${o.backhaulLoss}`);
  const list = (s: string) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  const injections = injectLevels(o.injectLateness, o.injectStalls, o.injectLink);
  const lateBarMs = o.lateBar ? Number(o.lateBar) : undefined;
  if (lateBarMs !== undefined && !(lateBarMs > 0 && lateBarMs <= 1000))
    throw new Error(`--late-bar wants a p99 lateness in ms in (0, 1000], got ${o.lateBar}`);
  const senderPriority = o.senderPriority ? Number(o.senderPriority) : undefined;
  if (senderPriority !== undefined && !(Number.isInteger(senderPriority) && senderPriority >= 1 && senderPriority <= 98))
    throw new Error(`--sender-priority wants a SCHED_FIFO priority in [1, 98], got ${o.senderPriority}`);
  const [firstRepeat, lastRepeat] = repeatRange(o.repeats);
  const out: Scenario[] = [];
  const counts = list(o.receivers ?? '1').map(Number);
  for (const n of counts)
    if (!(Number.isInteger(n) && n >= 1 && n <= 200)) throw new Error(`--receivers wants integers in [1, 200], got ${o.receivers}`);
  if (receiver === 'chromium' && counts.some((n) => n > 1))
    throw new Error('--receivers > 1 needs --receiver virtual (one Chromium per run)');
  const joins = list(o.join ?? 'sync');
  // A source replaces the stream list: its runs are named after it, the player from its manifest.
  const source = o.source ? checkSourceUrl(o.source) : undefined;
  const streams = source ? [sourceName(source.href, o.sourceName)] : list(o.stream);
  const players = o.player ? list(o.player) : [source && /\.mpd$/i.test(source.pathname) ? 'dash' : 'hls'];
  if (source && o.ll) throw new Error("--source plays the source as it is: --ll needs the testbed origin's low-latency renditions");
  for (const j of joins) if (j !== 'sync' && j !== 'spread') throw new Error(`--join must be sync or spread, got ${j}`);
  for (const stream of streams) {
    if (parseLadderName(stream)) checkLadder(stream, { receiver, ll: o.ll, schemes: list(o.scheme) });
    else if (!source && stream.includes('+'))
      throw new Error(`--stream ${stream}: a ladder is {a}M+{b}M-{2|4|10}s with bitrates ascending, e.g. 15M+50M-2s`);
  }
  for (const rtt of list(o.rtt))
    for (const stream of streams)
      for (const ran of list(o.ran))
        for (const player of players)
          for (const receivers of counts)
            for (const join of receivers > 1 ? joins : ['sync'])
              for (const injectLateness of injections)
                for (let repeat = firstRepeat; repeat <= lastRepeat; repeat++)
                  for (const scheme of list(o.scheme)) {
                    if (!SCHEME.test(scheme))
                      throw new Error(
                        `unknown scheme ${scheme} (e2e, auto, ${Object.keys(AUTO_VARIANTS).join(', ')}, hold-N, hold-paper, parts-N; -wN for N worker edges)`,
                      );
                    if (scheme.startsWith('parts-') && !o.ll) throw new Error(`${scheme} holds LL parts: give --ll`);
                    if (source && scheme.startsWith('hold-paper'))
                      throw new Error("hold-paper is Table III's x for the paper's streams: give a source hold-N or auto");
                    const cc = (o.cc ?? 'bbr') as Scenario['cc'];
                    if (!['bbr', 'cubic', 'reno'].includes(cc!)) throw new Error(`unknown congestion control ${cc}`);
                    out.push({
                      rttMs: Number(rtt),
                      stream,
                      ran,
                      scheme,
                      repeat,
                      durationS: o.durationS,
                      player: player === 'dash' ? 'dash' : 'hls',
                      cc,
                      ...(tcpBufferBytes ? { tcpBufferBytes } : {}),
                      ...(receiver === 'virtual' ? { receiver } : {}),
                      ...(receivers > 1 ? { receivers, cell: cell as Scenario['cell'], join: join as Scenario['join'] } : {}),
                      ...(backhaulMbps ? { backhaulMbps } : {}),
                      ...(backhaulLossPct ? { backhaulLossPct } : {}),
                      ...(o.ll ? { ll: true } : {}),
                      ...(injectLateness ? { injectLateness } : {}),
                      ...(senderPriority !== undefined ? { senderPriority } : {}),
                      ...(lateBarMs !== undefined ? { lateBarMs } : {}),
                      ...(source ? { source: { url: source.href } } : {}),
                    });
                  }
  return out;
}

/**
 * What a ladder stream cannot run with: the virtual receiver (it has no ABR — it plays one
 * rendition, a multivariant playlist's first variant — so its runs would say nothing of a ladder;
 * issue 38 asks for the players' own ABR), the low-latency renditions (the origin's LL ladder is
 * HLS only), and hold-paper (Table III has an x per stream, not per ladder).
 */
function checkLadder(stream: string, o: { receiver: string; ll?: boolean; schemes: string[] }): void {
  if (o.receiver !== 'chromium')
    throw new Error(
      `--stream ${stream} is an ABR ladder: the virtual receiver has no ABR (it plays one rendition); give --receiver chromium (hls.js and dash.js with their default ABR)`,
    );
  if (o.ll) throw new Error(`--stream ${stream} is an ABR ladder: --ll is not run on ladders`);
  if (o.schemes.some((x) => x.startsWith('hold-paper')))
    throw new Error(`--stream ${stream} is an ABR ladder: hold-paper is Table III's x per stream; give hold-N or auto`);
}

/**
 * `--repeats`: "3" is repeats 1–3; "4-5" is repeats 4 and 5 — the seeds of repeats 4 and 5, so a
 * later session or another machine can add repeats to cells run before, and merge them.
 */
function repeatRange(r: number | string): [number, number] {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(String(r));
  const [first, last] = m ? (m[2] === undefined ? [1, Number(m[1])] : [Number(m[1]), Number(m[2])]) : [NaN, NaN];
  if (!(first >= 1 && last >= first && last <= 1000))
    throw new Error(`--repeats wants N or FIRST-LAST (1 ≤ FIRST ≤ LAST ≤ 1000), got ${r}`);
  return [first, last];
}

/** The matrix from EXP_* environment variables (the experiment command sets them). */
export function matrixFromEnv(env: NodeJS.ProcessEnv = process.env): Scenario[] {
  return matrix({
    rtt: env.EXP_RTT ?? '224',
    stream: env.EXP_STREAM ?? '15M-2s',
    ran: env.EXP_RAN ?? 'lte-a',
    scheme: env.EXP_SCHEME ?? 'e2e,hold-0,auto',
    repeats: env.EXP_REPEATS ?? '1',
    durationS: Number(env.EXP_DURATION ?? 60),
    player: env.EXP_PLAYER ?? '',
    cc: env.EXP_CC ?? 'bbr',
    tcpBuffers: env.EXP_TCP_BUFFERS,
    receiver: env.EXP_RECEIVER || 'chromium',
    receivers: env.EXP_RECEIVERS || '1',
    cell: env.EXP_CELL || 'per-user',
    backhaulMbps: env.EXP_BACKHAUL_MBPS || undefined,
    backhaulLoss: env.EXP_BACKHAUL_LOSS || undefined,
    join: env.EXP_JOIN || 'sync',
    ll: env.EXP_LL === '1',
    injectLateness: env.EXP_INJECT_LATENESS || undefined,
    injectStalls: env.EXP_INJECT_STALLS || undefined,
    injectLink: env.EXP_INJECT_LINK || undefined,
    senderPriority: env.EXP_SENDER_PRIORITY || undefined,
    lateBar: env.EXP_LATE_BAR_MS || undefined,
    source: env.EXP_SOURCE || undefined,
    sourceName: env.EXP_SOURCE_NAME || undefined,
  });
}

/** `64M`, `32m`, `4194304` → bytes; empty → undefined (the hosts' defaults). */
function parseBytes(s: string | undefined): number | undefined {
  if (s === undefined || s === '') return undefined;
  const m = /^(\d+)([kKmM]?)$/.exec(s.trim());
  if (!m) throw new Error(`--tcp-buffers wants bytes, e.g. 64M, got ${s}`);
  return Number(m[1]) * (m[2] === '' ? 1 : /k/i.test(m[2]!) ? 1024 : 2 ** 20);
}
