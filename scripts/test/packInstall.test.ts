import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a web developer gets from the registry: the published packages packed as `npm publish`
// would (prepack builds dist), installed into a blank project from the tarballs — our own
// packages need no registry, their dependencies come from the npm cache when it has them
// (--prefer-offline) — and used: imported, their CLIs run, their types checked by tsc.
const run = promisify(execFile);
const root = new URL('../..', import.meta.url).pathname;
const PACKAGES = ['@ethle/core', '@ethle/qoe-probe', '@ethle/edge-node', '@ethle/collector'] as const;
const dir = mkdtempSync(join(tmpdir(), 'ethle-pack-'));
const app = join(dir, 'app');
const npm = (args: string[], cwd: string) =>
  run('npm', args, {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
  });
let packed: { name: string; filename: string; files: { path: string }[] }[] = [];

beforeAll(async () => {
  const { stdout } = await npm(['pack', '--json', '--pack-destination', dir, ...PACKAGES.flatMap((p) => ['-w', p])], root);
  // prepack scripts may print before npm's JSON.
  packed = JSON.parse(stdout.slice(stdout.indexOf('\n[') + 1 || stdout.indexOf('[')));
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'blank-app', private: true, type: 'module' }));
  const typesNode = JSON.parse(readFileSync(join(root, 'node_modules/@types/node/package.json'), 'utf8')).version as string;
  await npm(
    ['install', '--prefer-offline', '--no-package-lock', ...packed.map((p) => join(dir, p.filename)), `@types/node@${typesNode}`],
    app,
  );
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the published packages', () => {
  it('pack exactly what a user needs: LICENSE, README, built dist with types; no tests or benches', () => {
    expect(packed.map((p) => p.name).sort()).toEqual([...PACKAGES].sort());
    for (const p of packed) {
      const files = p.files.map((f) => f.path);
      for (const f of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts'])
        expect(files, `${p.name} ${f}`).toContain(f);
      expect(
        files.filter((f) => /^(test|bench|scripts)\/|tsbuildinfo$/.test(f)),
        p.name,
      ).toEqual([]);
      const pkg = JSON.parse(readFileSync(join(app, 'node_modules', p.name, 'package.json'), 'utf8'));
      expect(pkg).toMatchObject({
        license: 'Apache-2.0',
        publishConfig: { access: 'public' },
        repository: { type: 'git', directory: expect.stringMatching(/^packages\//) },
      });
      expect(readFileSync(join(app, 'node_modules', p.name, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0/);
    }
    expect(packed.find((p) => p.name === '@ethle/qoe-probe')!.files.map((f) => f.path)).toContain('dist/qoe-probe.min.js');
  });

  it('import and work in a blank project: the model, the probe, an edge, a collector storing a beacon', async () => {
    writeFileSync(
      join(app, 'use.mjs'),
      `import { modelHold } from '@ethle/core';
import { attachProbe, Events, ProbeError } from '@ethle/qoe-probe';
import { startEdge, createEdgeConfig } from '@ethle/edge-node';
import { startCollector, createCollectorConfig } from '@ethle/collector';
const out = {};
out.hold = modelHold({ rttSeconds: 0.224, segmentBytes: 3_700_000, segmentSeconds: 2, ranBps: 60e6, initialWindowSegments: 1 }).hold;
try { attachProbe({}); } catch (e) { out.probe = e instanceof ProbeError ? e.code : String(e); }
out.events = Events.STALL_END;
const edge = await startEdge(createEdgeConfig({ origin: 'http://127.0.0.1:9', port: 0, hold: 2 }));
out.edgeMetrics = (await fetch(edge.url + '/metrics')).status;
await edge.close();
const c = await startCollector(createCollectorConfig({ port: 0, store: { duckdb: ':memory:' } }), { log: () => {} });
const now = Date.now();
const r = await fetch(c.url + '/v1/beacon', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ v: 1, session: 's', seq: 0, target: 'hls', sentAt: now, events: [{ type: 'startup', data: { startupMs: 500, at: now } }] }) });
out.beacon = r.status;
out.sessions = (await (await fetch(c.url + '/v1/sessions')).json()).sessions.map((s) => s.startupMs);
await c.close();
console.log(JSON.stringify(out));
`,
    );
    const { stdout } = await run(process.execPath, ['use.mjs'], { cwd: app });
    expect(JSON.parse(stdout)).toEqual({
      hold: 2,
      probe: 'QOE_ERR_BAD_TARGET',
      events: 'stallEnd',
      edgeMetrics: 200,
      beacon: 200,
      sessions: [500],
    });
  });

  it('run their CLIs: ethle-edge plan, ethle-collector migrate and --help', async () => {
    const plan = await run(
      'npx',
      [
        '--no-install',
        'ethle-edge',
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
      ],
      { cwd: app },
    );
    expect(JSON.parse(plan.stdout)).toMatchObject({ hold: 2, reason: 'hold-x' });
    const migrate = await run('npx', ['--no-install', 'ethle-collector', 'migrate', '--db', join(dir, 'cli.duckdb')], { cwd: app });
    expect(migrate.stdout).toMatch(/is at schema \d+/);
    const help = await run('npx', ['--no-install', 'ethle-collector', '--help'], { cwd: app });
    expect(help.stdout).toContain('--postgres URL');
  });

  it('type-check a consumer with their declarations (tsc, strict, NodeNext)', async () => {
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          lib: ['ES2022', 'DOM'],
          types: ['node'],
          skipLibCheck: false,
        },
      }),
    );
    writeFileSync(
      join(app, 'check.ts'),
      `import { modelHold, type ModelHoldResult } from '@ethle/core';
import { attachProbe, type QoeProbe, type QoeReport, type BeaconBatch } from '@ethle/qoe-probe';
import { createEdgeConfig, type EdgeConfig } from '@ethle/edge-node';
import { createCollectorConfig, startCollector, type FleetView, type RunningCollector } from '@ethle/collector';
const r: ModelHoldResult = modelHold({ rttSeconds: 0.224, segmentBytes: 1, segmentSeconds: 2, ranBps: 60e6 });
const hold: number | null = r.hold;
declare const video: HTMLVideoElement;
const probe: QoeProbe = attachProbe(video, { beacon: { url: 'https://c.example/v1/beacon', meta: { scheme: 'hold-2' } } });
const report: QoeReport = probe.report();
const seq: BeaconBatch['seq'] = 0;
const edge: EdgeConfig = createEdgeConfig({ origin: 'http://o.example', port: 0 });
const started: Promise<RunningCollector> = startCollector(createCollectorConfig({ store: { postgres: 'postgres://q@db/q' } }));
const p50: FleetView['groups'][number]['startupP50Ms'] = null;
// The declarations are real types, not any: each misuse below must be an error.
// @ts-expect-error a probe option that does not exist
attachProbe(video, { beacons: true });
// @ts-expect-error the collector's port is a number
createCollectorConfig({ port: '8082' });
// @ts-expect-error modelHold needs the segment length
modelHold({ rttSeconds: 0.224, segmentBytes: 1, ranBps: 60e6 });
export { hold, report, seq, edge, started, p50 };
`,
    );
    await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', app], { cwd: app }).catch((e: { stdout: string }) => {
      throw new Error(`tsc found errors:\n${e.stdout}`);
    });
  });
});
