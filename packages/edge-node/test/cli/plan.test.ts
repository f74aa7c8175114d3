import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { PLAN_DEFAULT_MAX_HOLD } from '../../src/cli/plan.js';
import { createEdgeConfig } from '../../src/index.js';

function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } };
  return main(argv, io).then((code) => ({ code, stdout, stderr }));
}

const JAPAN = [
  'plan',
  '--rtt-ms',
  '224',
  '--segment-bytes',
  '3700000',
  '--segment-seconds',
  '2',
  '--ran-mbps',
  '60',
  '--iw',
  '1',
  '--json',
];

describe('ethle-edge plan', () => {
  it('prints the Table III Japan 15M-2s cell as one JSON object', async () => {
    const r = await run(JAPAN);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o.hold).toBe(2);
    expect(o.backhaulMbps).toBeGreaterThan(11.7 * 0.95);
    expect(o.backhaulMbps).toBeLessThan(11.7 * 1.05);
    expect(o.deliverySeconds).toBeCloseTo((3.7e6 * 8) / (o.backhaulMbps * 1e6), 2);
    expect(o.reason).toBe('hold-x');
  });

  it('derives the segment size from --bitrate-mbps', async () => {
    const a = JSON.parse((await run(JAPAN)).stdout);
    const b = JSON.parse(
      (
        await run([
          'plan',
          '--rtt-ms',
          '224',
          '--bitrate-mbps',
          '14.8',
          '--segment-seconds',
          '2',
          '--ran-mbps',
          '60',
          '--iw',
          '1',
          '--json',
        ])
      ).stdout,
    );
    expect(b.segmentBytes).toBeCloseTo(3.7e6, 0);
    expect(b.hold).toBe(a.hold);
    expect(b.backhaulMbps).toBeCloseTo(a.backhaulMbps, 3);
  });

  it('loss and a low bottleneck lower the backhaul estimate and raise x', async () => {
    const clean = JSON.parse((await run(JAPAN)).stdout);
    const lossy = JSON.parse((await run([...JAPAN, '--loss', '0.001', '--iw', '10'])).stdout);
    expect(lossy.limitedBy).toBe('loss');
    expect(lossy.backhaulMbps).toBeLessThan(clean.backhaulMbps);
    const narrow = JSON.parse((await run([...JAPAN, '--bottleneck-mbps', '5'])).stdout);
    expect(narrow.backhaulMbps).toBeLessThanOrEqual(5);
    expect(narrow.hold).toBeGreaterThan(clean.hold);
  });

  it('--window-bytes and --rcvbuf cap one flow at window/RTT and can raise x (50M-10s, IW 1, 150 Mbit/s radio)', async () => {
    const cell = [
      'plan',
      '--rtt-ms',
      '224',
      '--segment-bytes',
      '61100000',
      '--segment-seconds',
      '10',
      '--bitrate-mbps',
      '50',
      '--ran-mbps',
      '150',
      '--iw',
      '1',
      '--json',
    ];
    const free = JSON.parse((await run(cell)).stdout);
    expect(free).toMatchObject({ hold: 0, limitedBy: 'slow-start', reason: 'hold-0-sufficient' });
    expect(free.windowBytes).toBeUndefined();
    // The testbed origin's effective send window (docs/netlab.md): 61.1 MB at 64 Mbit/s, not 142.
    const sent = JSON.parse((await run([...cell, '--window-bytes', '2516582'])).stdout);
    expect(sent).toMatchObject({ hold: 1, limitedBy: 'window', windowBytes: 2516582, reason: 'hold-x' });
    expect(sent.backhaulMbps).toBeCloseTo(64.1, 1);
    // Linux's default 6 MiB receive buffer advertises 3 MiB: at most 112 Mbit/s over 224 ms.
    const rcv = JSON.parse((await run([...cell, '--rcvbuf', '6291456'])).stdout);
    expect(rcv).toMatchObject({ limitedBy: 'window', windowBytes: 3145728 });
    expect(rcv.backhaulMbps).toBeLessThan(112.4);
    expect(rcv.backhaulMbps).toBeLessThan(free.backhaulMbps);
    // Both: the smaller window binds.
    expect(JSON.parse((await run([...cell, '--rcvbuf', '6291456', '--window-bytes', '2516582'])).stdout)).toMatchObject({
      windowBytes: 2516582,
      backhaulMbps: sent.backhaulMbps,
    });
    const sentence = (await run([...cell.slice(0, -1), '--window-bytes', '2516582'])).stdout;
    expect(sentence).toMatch(/^Hold 1 segment \(.*window of 2516582 B/);
  });

  it('null hold with the reason when the radio is slower than the bitrate', async () => {
    const o = JSON.parse(
      (await run(['plan', '--rtt-ms', '224', '--bitrate-mbps', '15', '--segment-seconds', '2', '--ran-mbps', '10', '--json'])).stdout,
    );
    expect(o.hold).toBeNull();
    expect(o.reason).toBe('ran-below-bitrate');
  });

  it('--max-hold caps x', async () => {
    const o = JSON.parse((await run([...JAPAN, '--max-hold', '1'])).stdout);
    expect(o).toMatchObject({ hold: 1, assured: false, reason: 'capped-at-max-hold', streamHold: 2 });
  });

  it('without --max-hold, caps x where a default edge does, and its help and serve’s say the same default', async () => {
    const edgeDefault = createEdgeConfig({ origin: 'http://origin.test' }).maxHold;
    expect(PLAN_DEFAULT_MAX_HOLD).toBe(edgeDefault);
    // 50M-2s over an 800 ms backhaul needs x = 6: more than a default edge holds.
    const o = JSON.parse(
      (
        await run([
          'plan',
          '--rtt-ms',
          '800',
          '--segment-bytes',
          '12200000',
          '--segment-seconds',
          '2',
          '--ran-mbps',
          '200',
          '--iw',
          '1',
          '--json',
        ])
      ).stdout,
    );
    expect(o).toMatchObject({ hold: edgeDefault, streamHold: 6, reason: 'capped-at-max-hold', assured: false });
    const planHelp = (await run(['plan', '--help'])).stdout;
    const serveHelp = (await run(['serve', '--help'])).stdout;
    const defaultOf = (help: string) => /--max-hold N.*\(default (\d+)/.exec(help)?.[1];
    expect(defaultOf(planHelp)).toBe(String(edgeDefault));
    expect(defaultOf(serveHelp)).toBe(String(edgeDefault));
  });

  it('--part-seconds answers in parts too (holdParts), warm by default, fresh on request', async () => {
    // Table I 50M-2s at 224 ms, 0.5 s parts: whole segments need x = 2 (IW 1); warm parts need N = 1.
    const cell = ['plan', '--rtt-ms', '224', '--segment-bytes', '12200000', '--segment-seconds', '2', '--ran-mbps', '60', '--json'];
    const plain = JSON.parse((await run(cell)).stdout);
    expect(plain.holdParts).toBeUndefined();
    const warm = JSON.parse((await run([...cell, '--part-seconds', '0.5'])).stdout);
    expect(warm).toMatchObject({
      holdParts: 1,
      partSeconds: 0.5,
      partBytes: 3050000,
      partStart: 'warm',
      partLimitedBy: 'window',
      partReason: 'hold-x',
    });
    expect(warm.partDeliverySeconds).toBeCloseTo(0.441, 3);
    expect(warm.hold).toBe(plain.hold);
    const fresh = JSON.parse((await run([...cell, '--part-seconds', '0.5', '--part-start', 'fresh'])).stdout);
    expect(fresh).toMatchObject({ holdParts: 5, partStart: 'fresh', partLimitedBy: 'slow-start' });
    // A smaller window makes the warm flow slower: more parts.
    const narrow = JSON.parse((await run([...cell, '--part-seconds', '0.5', '--window-bytes', '500000'])).stdout);
    expect(narrow.holdParts).toBeGreaterThan(warm.holdParts);
    const line = (await run([...cell.slice(0, -1), '--part-seconds', '0.5'])).stdout;
    expect(line.trim().split('\n')).toHaveLength(1);
    expect(line).toMatch(
      /In parts: hold 1 part \(\+0\.5 s latency\): a 0\.5 s part \(3\.05 MB\) takes 0\.44 s over the backhaul on a warm connection\./,
    );
    const help = (await run(['plan', '--help'])).stdout;
    expect(help).toContain('--part-seconds');
    expect(help).toContain('--part-start');
  });

  it('--segment-start warm: an origin that keeps its window across idle (one RTT + the bytes at the window rate)', async () => {
    // 15M-2s at 224 ms: the paper's slow start needs x = 1 here (IW 10, no request RTT); warm, eq. 1 holds.
    const cell = ['plan', '--rtt-ms', '224', '--segment-bytes', '3700000', '--segment-seconds', '2', '--ran-mbps', '60', '--json'];
    const slow = JSON.parse((await run(cell)).stdout);
    expect(slow).toMatchObject({ hold: 1, segmentStart: 'slow-start', limitedBy: 'slow-start' });
    const warm = JSON.parse((await run([...cell, '--segment-start', 'warm'])).stdout);
    expect(warm).toMatchObject({
      hold: 0,
      reason: 'hold-0-sufficient',
      segmentStart: 'warm',
      limitedBy: 'window',
      windowBytes: 3 * 2 ** 20,
    });
    expect(warm.deliverySeconds).toBeCloseTo(0.224 + (3.7e6 * 8) / ((3 * 2 ** 20 * 8) / 0.224), 3);
    // A narrower window (the edge's --rcvbuf) slows the warm flow.
    const narrow = JSON.parse((await run([...cell, '--segment-start', 'warm', '--rcvbuf', '1000000'])).stdout);
    expect(narrow.deliverySeconds).toBeGreaterThan(warm.deliverySeconds);
    expect(narrow.windowBytes).toBe(500000);
    const line = (await run([...cell.slice(0, -1), '--segment-start', 'warm'])).stdout;
    expect(line).toMatch(/^Hold 0 segments: the backhaul delivers a segment in 0\.49 s \(60\.7 Mbit\/s, warm, window of 3145728 B\)/);
    expect((await run(['plan', '--help'])).stdout).toContain('--segment-start');
    // learn needs fetches: serve only.
    const learn = await run([...cell, '--segment-start', 'learn']);
    expect(learn.code).toBe(2);
    expect(learn.stderr).toContain('learn is for serve');
  });

  it('no command or an unknown one: usage on stderr, exit 2', async () => {
    for (const argv of [[], ['frobnicate']]) {
      const r = await run(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/usage: ethle-edge/);
    }
  });

  it('--help prints the options and exits 0', async () => {
    const r = await run(['plan', '--help']);
    expect(r.code).toBe(0);
    for (const flag of [
      '--rtt-ms',
      '--segment-bytes',
      '--bitrate-mbps',
      '--loss',
      '--bottleneck-mbps',
      '--rcvbuf',
      '--window-bytes',
      '--max-hold',
      '--mss',
      '--iw',
      '--json',
    ])
      expect(r.stdout).toContain(flag);
  });

  it('one sentence says "1 origin fetch" for hold 1', async () => {
    const r = await run([
      'plan',
      '--rtt-ms',
      '137',
      '--segment-bytes',
      '3700000',
      '--segment-seconds',
      '2',
      '--ran-mbps',
      '60',
      '--iw',
      '1',
    ]);
    expect(r.stdout).toMatch(/^Hold 1 segment \(/);
    expect(r.stdout).toContain('1 origin fetch keeps');
  });

  it('prints one sentence without --json', async () => {
    const r = await run(JAPAN.slice(0, -1));
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toMatch(/^Hold 2 segments/);
  });

  it.each([
    [['plan', '--rtt-ms', 'abc', '--segment-bytes', '1', '--segment-seconds', '2', '--ran-mbps', '60'], /--rtt-ms must be a number/],
    [['plan', '--segment-bytes', '1', '--segment-seconds', '2', '--ran-mbps', '60'], /--rtt-ms is required/],
    [['plan', '--rtt-ms', '224', '--segment-seconds', '2', '--ran-mbps', '60'], /--segment-bytes or --bitrate-mbps/],
    [[...JAPAN, '--bogus', '1'], /bogus/],
    [['plan', '--rtt-ms=-5', '--segment-bytes', '1e6', '--segment-seconds', '2', '--ran-mbps', '60'], /--rtt-ms must not be negative/],
    [
      ['plan', '--rtt-ms', '0', '--segment-bytes', '1e6', '--segment-seconds', '2', '--ran-mbps', '60'],
      /rttSeconds must be a number in \(0/,
    ],
    [[...JAPAN, '--rcvbuf', '0'], /--rcvbuf must be above 0/],
    [[...JAPAN, '--window-bytes', 'lots'], /--window-bytes must be a number/],
    [[...JAPAN, '--part-seconds', '0'], /--part-seconds must be above 0/],
    [[...JAPAN, '--part-seconds', '3'], /--part-seconds must not exceed --segment-seconds/],
    [[...JAPAN, '--part-seconds', '0.5', '--part-start', 'tepid'], /--part-start must be warm or fresh/],
    [[...JAPAN, '--part-start', 'warm'], /--part-start needs --part-seconds/],
    [[...JAPAN, '--segment-start', 'hot'], /--segment-start must be slow-start or warm, got "hot"/],
  ])('bad arguments: a message on stderr and exit 2 (%j)', async (argv, msg) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(msg);
  });
});

describe('the ethle-edge bin', () => {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  beforeAll(() => {
    // Only the CLI's own project and what it references (the core): a type error elsewhere in the
    // workspace is the typecheck step's to report, not this test's.
    execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-b', 'packages/edge-node'], { cwd: root, stdio: 'pipe' });
  }, 120_000);

  it('gives the same numbers as the library and exits 2 on bad input', () => {
    const bin = `${root}packages/edge-node/bin/ethle-edge.js`;
    const ok = spawnSync(process.execPath, [bin, ...JAPAN], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    const o = JSON.parse(ok.stdout);
    // Table III, Japan 15M-2s, modeled: x = 2, 11.7 Mbit/s.
    expect(o).toMatchObject({ hold: 2, reason: 'hold-x' });
    expect(Math.abs(o.backhaulMbps - 11.7) / 11.7).toBeLessThan(0.02);
    expect(o.deliverySeconds).toBeGreaterThan(2.5);
    expect(o.deliverySeconds).toBeLessThan(2.6);
    const bad = spawnSync(process.execPath, [bin, 'plan', '--rtt-ms'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/ethle-edge plan:/);
  });
});
