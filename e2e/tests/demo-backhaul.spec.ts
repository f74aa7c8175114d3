import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { edgeStallTimeline, recordVideoEvents } from '../fixtures/edgeStallTimeline.js';
import { startArgs } from '../fixtures/startArgs.js';

// `npm start -- --backhaul 224`: the origin behind an emulated 224 ms backhaul and the LTE-A radio
// in front of the players (packages/netlab, real kernel TCP); the host's browser reaches both
// through a forwarder in the client namespace. Without root: one line, exit 2.
const root = new URL('../..', import.meta.url).pathname;
const isRoot = process.getuid?.() === 0;

test('--backhaul without root: one line with a code, exit 2; a bad RTT names the flag', () => {
  // As root, drop to nobody for this run (the check is on the user, not on the machine).
  const argv = ['scripts/start.mjs', '--backhaul', '224', '--origin-port', '0', '--edge-port', '0', '--port', '0'];
  const r = isRoot
    ? spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...argv], {
        cwd: root,
        encoding: 'utf8',
        timeout: 30_000,
      })
    : spawnSync(process.execPath, argv, { cwd: root, encoding: 'utf8', timeout: 30_000 });
  expect(r.status).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^npm start: ERR_START_NEEDS_ROOT: --backhaul needs root .*origin outage/);
  expect(r.stdout).toBe('');
  const bad = spawnSync(process.execPath, ['scripts/start.mjs', '--backhaul', 'far'], { cwd: root, encoding: 'utf8', timeout: 30_000 });
  expect(bad.status).toBe(2);
  expect(bad.stderr.trim()).toBe(
    'npm start: ERR_START_USAGE: --backhaul must be a round-trip time in ms, 1..2000, got "far" (npm start -- --help lists the options)',
  );
});

test.describe('as root', () => {
  test.skip(!isRoot, 'network namespaces need root');
  let proc: ChildProcess | undefined;
  let fresh: ReturnType<typeof startArgs> | undefined;
  /** Stops npm start (its network log is complete once it has exited). */
  const stop = async () => {
    if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc!.once('exit', r));
    proc.kill('SIGTERM');
    await exited;
  };
  test.afterAll(async () => {
    await stop();
    fresh?.cleanup();
  });

  test('the page shows the benefit: over the emulated network the direct player waits a backhaul round trip per segment and takes longer per segment; the edge player does neither and stalls no more', async ({
    page,
  }, info) => {
    test.setTimeout(180_000);
    // The defaults of --backhaul: 15M-2s (3.66 MB every 2 s: one E2E flow over 224 ms spends
    // about a segment's length in slow start; the radio carries it with headroom, so the edge
    // keeps its player) and --hold auto; each player has its own radio link.
    fresh = startArgs();
    proc = spawn(process.execPath, ['scripts/start.mjs', '--backhaul', '224', ...fresh.args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const on = (c: Buffer) => {
        out += c.toString();
        const m = /open\s+(http:\/\/\S+?)\//.exec(out);
        if (m) resolve(m[1]!);
      };
      proc!.stdout!.on('data', on);
      proc!.stderr!.on('data', on);
      proc!.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${out}`)));
    });
    expect(out).toContain('backhaul 224 ms RTT');
    expect(out).toContain('ETHLE demo is up (15M-2s');
    await page.goto(`${url}/`);
    await page.evaluate(recordVideoEvents);
    // 25 s of playback on the edge side, whatever the direct side does meanwhile.
    await page.waitForFunction(() => document.querySelectorAll('video')[1]!.currentTime > 0, undefined, { timeout: 90_000 });
    const t0 = await page.evaluate(() => document.querySelectorAll('video')[1]!.currentTime);
    // A player that never gets there still leaves its story below, so the failure explains itself.
    const played = await page
      .waitForFunction((t) => document.querySelectorAll('video')[1]!.currentTime > t + 25, t0, { timeout: 120_000 })
      .then(
        () => undefined,
        (e: Error) => e.message.split('\n')[0],
      );
    const seen = await page.evaluate(() => {
      const media = (h: any) => h.probe.report().segments.list.filter((s: any) => s.kind === 'media');
      const ttfb = (h: any) => media(h).map((s: any) => s.firstByte - s.requestStart);
      const fetchMs = (h: any) => media(h).map((s: any) => s.lastByte - s.requestStart);
      const [direct, edge] = (window as any).demo.handles;
      return {
        direct: ttfb(direct),
        edge: ttfb(edge),
        edgePaths: media(edge).map((s: any) => new URL(s.url).pathname),
        directFetch: fetchMs(direct),
        edgeFetch: fetchMs(edge),
        stalls: [direct, edge].map((h: any) => h.probe.report().stalls),
        onEdge: edge.probe.report().holdSeconds,
        edgeReport: edge.probe.report(),
        timeline: (window as any).demo.snapshot(),
        edgeVideo: (window as any).videoEvents[1],
      };
    });
    await page.screenshot({ path: info.outputPath('side-by-side-backhaul.png'), fullPage: true });
    // Why the edge player stalled, if it did: its segments against the edge's timeline, its media
    // events, the edge's hold changes and the relays' lateness (written as npm start stops).
    await stop();
    const log = readFileSync(join(fresh.dataDir, 'network.log'), 'utf8');
    const story = edgeStallTimeline(seen.edgeReport, seen.timeline, seen.edgeVideo, log);
    await info.attach('edge-player.json', {
      body: JSON.stringify({ report: seen.edgeReport, timeline: seen.timeline, video: seen.edgeVideo, log }),
      contentType: 'application/json',
    });
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const [direct, edge] = seen.stalls;
    const measured = `ttfb median direct ${median(seen.direct)} ms (n=${seen.direct.length}), edge ${median(seen.edge)} ms (n=${seen.edge.length}); segment fetch median direct ${median(seen.directFetch)} ms, edge ${median(seen.edgeFetch)} ms; stalls direct ${direct.count} (${direct.totalMs} ms), edge ${edge.count} (${edge.totalMs} ms); edge hold ${seen.onEdge} s`;
    // How the edge had each of the edge player's segments when it asked (its timeline): a hit, a
    // fetch under way (coalesced) or a miss, with the player's time to first byte for each kind.
    const results = new Map<string, number[]>();
    const segments: { path: string; firstResult?: string }[] = seen.timeline?.segments ?? [];
    const timeline = new Map(segments.map((g) => [g.path, g.firstResult]));
    (seen.edgePaths as string[]).forEach((p, i) => {
      // Not in the edge's timeline, or in it without a recorded first request: no kind to tell.
      const r = timeline.get(p) ?? 'unrecorded';
      results.set(r, [...(results.get(r) ?? []), seen.edge[i]!]);
    });
    const byResult = [...results].map(([r, xs]) => `${r} ${xs.length} (ttfb median ${Math.round(median(xs))} ms)`).join(', ');
    info.annotations.push({ type: 'measured', description: `${measured}; edge answered: ${byResult}` });
    console.log(`demo --backhaul 224: ${measured}\nedge answered: ${byResult}`);
    function checks() {
      // Every direct request crosses the radio and the 224 ms backhaul: no answer sooner than that.
      expect(seen.direct.length).toBeGreaterThan(0);
      expect(Math.min(...seen.direct)).toBeGreaterThanOrEqual(224);
      // The edge answers held segments from its cache, most of the edge player's requests (the
      // start segments come from fetches under way), and those without the backhaul's round trip:
      // sooner than the direct player's answers over the same radio model. Not an absolute bar on
      // all of them: a start segment asked while its fetch waits for the origin's first byte
      // carries the backhaul, and the radio's RTT under the cell's load reaches ~180 ms (the
      // annotation and the story on failure say which kind of answer was slow).
      const hits = results.get('hit') ?? [];
      expect(hits.length).toBeGreaterThanOrEqual(seen.edge.length / 2);
      expect(median(hits)).toBeLessThan(median(seen.direct));
      // The edge player stayed on the edge (not redirected by eq. 3) and held segments.
      expect(seen.onEdge).toBeGreaterThan(0);
      // What the demo is for: a direct segment crosses the backhaul on one slow-start-bound flow,
      // an edge segment comes from the cache over the radio alone, so it arrives sooner. Whether
      // the direct player also stalls within these 25 s is chance (E2E at 224 ms does not
      // stall in every run: docs/experiments.md, "Stalls"), so the stall check is one-sided: the
      // edge player never stalls longer than the direct one.
      expect(median(seen.edgeFetch)).toBeLessThan(median(seen.directFetch));
      expect(edge.totalMs).toBeLessThanOrEqual(direct.totalMs);
    }
    const brief = story.filter((l) => l.startsWith('netlab') || l.startsWith('edge log'));
    try {
      expect(played, 'the edge player played 25 s within 120 s').toBeUndefined();
      checks();
      console.log((seen.stalls[1].count > 0 ? story : brief).join('\n'));
    } catch (e) {
      // The whole timeline on any failure: which segments were slow, and what the edge was doing.
      console.log(story.join('\n'));
      throw e;
    }
  });
});
