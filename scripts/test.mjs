#!/usr/bin/env node
// The one test command (`npm test`): type-check every package, run the unit and integration
// tests (vitest), then the browser tests (Playwright in Debian Chromium). Prints one closing line
// "tests: N passed, N failed" over all stages and exits non-zero if any stage failed.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'test-results');
mkdirSync(out, { recursive: true });
const only = process.argv.slice(2); // e.g. `npm test -- unit` or `npm test -- e2e`
const want = (stage) => only.length === 0 || only.includes(stage);

let passed = 0;
let failed = 0;
let broken = false;
/** Every failed test by name, printed last: CI shows only the log's tail, and a count names nothing. */
const failures = [];
const firstLine = (m) =>
  String(m ?? '')
    .split('\n')[0]
    .replace(/\x1b\[[0-9;]*m/g, '')
    .slice(0, 300);

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  // Each stage's wall time, so CI's 20-minute budget can be read stage by stage from the log.
  console.log(`=== ${label}: exit ${r.status ?? r.signal}, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  if (r.status !== 0) broken = true;
  return r.status ?? 1;
}

/**
 * `cmd` in the background, its output into `log` (a file, not a pipe: the stage in the foreground
 * runs under spawnSync, which blocks this process's event loop, so a pipe would fill and stall the
 * child on its next write). Returns what waits for it, prints its output whole (two commands'
 * lines never interleave) and its wall time, and resolves to its exit status.
 */
function spawnToLog(label, cmd, args, log, env = {}) {
  const t0 = Date.now();
  const fd = openSync(log, 'w');
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const done = new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));
  return async () => {
    const status = await done;
    console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
    process.stdout.write(readFileSync(log));
    console.log(`=== ${label}: exit ${status}, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    if (status !== 0) broken = true;
    return status;
  };
}

/** A check run in the background (spawnToLog), counted as one passed or failed when collected. */
function runBeside(label, cmd, args) {
  const wait = spawnToLog(label, cmd, args, join(out, `${label.replace(/[^a-z0-9]+/gi, '-')}.log`));
  return async () => {
    if ((await wait()) !== 0) {
      failed += 1;
      failures.push(`${label}: see its output above`);
    } else passed += 1;
  };
}

// Lint and format: one process in the background from the start, collected after the unit and
// netlab stages. The type checks and lint together are CPU-bound on two cores (each lane slowed
// the other), so the unit stage starts once the type checks are done and lint finishes beside it:
// the unit stage waits on sockets and timers more than on the CPU, and netlab outlasts it.
const lintLane = [];
if (want('lint')) {
  // ESLint (eslint.config.js: typescript-eslint's recommended rules and the layering rules), then
  // Prettier's check (.prettierrc.json): the style is the tools', not a reviewer's.
  lintLane.push(
    runBeside('lint (eslint) and format (prettier --check)', 'sh', [
      '-c',
      "npx eslint . && npx prettier --check --log-level warn '**/*.{ts,mts,mjs,js,cjs}'",
    ]),
  );
}
/** One command counted as one test, named among the failures if it fails. */
function check(label, args) {
  if (run(label, 'npx', args) !== 0) {
    failed += 1;
    failures.push(`${label}: see its output above`);
  } else passed += 1;
}
if (want('typecheck')) {
  check('typecheck', ['tsc', '-b', 'tsconfig.build.json']);
  // The Playwright tests and experiments: Playwright only strips their types, so check them here.
  // Beside the next check: both only read (no output), each is one process.
  const e2e = runBeside('typecheck e2e', 'npx', ['tsc', '-p', 'e2e/tsconfig.json']);
  // Unit tests, benchmarks and measuring scripts: vitest and tsx only strip their types too.
  check('typecheck tests, benches, scripts', ['tsc', '-p', 'tsconfig.check.json']);
  await e2e();
}

/**
 * Runs a stage that writes a JSON report to `file` and adds its counts. The report is removed
 * first, so a stage that dies before writing one counts as a failure, not as the last run's result.
 */
function stage(label, cmd, args, file, tally, env) {
  rmSync(file, { force: true });
  run(label, cmd, args, env);
  if (existsSync(file)) tally(JSON.parse(readFileSync(file, 'utf8')));
  else {
    failed += 1;
    failures.push(`${label}: ended without its report`);
  }
}
/** `stage` in the background (spawnToLog). Returns what `collect()` awaits. */
function stageBeside(label, cmd, args, file, tally, env = {}) {
  rmSync(file, { force: true });
  const wait = spawnToLog(label, cmd, args, `${file}.log`, env);
  return async () => {
    await wait();
    if (existsSync(file)) tally(JSON.parse(readFileSync(file, 'utf8')));
    else {
      failed += 1;
      failures.push(`${label}: ended without its report`);
    }
  };
}

const vitestTally = (r) => {
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  for (const file of r.testResults ?? []) {
    const rel = String(file.name ?? '').replace(root, '');
    const failedHere = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failedHere) failures.push(`${rel} › ${a.fullName ?? a.title}: ${firstLine(a.failureMessages?.[0])}`);
    // A file that failed to load has no failed test in it: name the file and its message.
    if (file.status === 'failed' && failedHere.length === 0) failures.push(`${rel}: ${firstLine(file.message)}`);
  }
  if (!r.success && (r.numFailedTests ?? 0) === 0) failed += 1; // a suite that failed to load
};
/** Browser tests that failed once and passed on their retry (playwright.config.ts `retries`): named at the end. */
const flaky = [];
const playwrightTally = (r) => {
  const s = r.stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === 'flaky' || t.status === 'unexpected') {
          const first = t.results?.find((x) => x.status !== 'passed');
          const line = `${[...path, spec.title].join(' › ')} (${t.projectName}): ${firstLine(first?.error?.message)}`;
          (t.status === 'flaky' ? flaky : failures).push(line);
        }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of r.suites ?? []) walk(suite, [suite.title]);
};

// Real kernel TCP through namespaces and the user-space relays. It runs beside the unit stage
// (whose files are functional, with no timing bars), never beside the timing, soak or browser
// stages: its relays and socats run at real-time priority (makeRealtime), so other test files'
// CPU does not hold a datagram back — the testbed's own tests under CPU hogs on every core check
// that — and the stage's ~2 minutes overlap instead of adding to CI's 20. ETHLE_NETLAB_ALONE=1
// runs it on its own after the unit stage.
const netlabFile = join(out, 'vitest-netlab.json');
const netlabArgs = [
  'vitest',
  'run',
  'packages/netlab/test/testbed.test.ts',
  'packages/netlab/test/cell.test.ts',
  'packages/netlab/test/handover.test.ts',
  'packages/netlab/test/linkAccounting.test.ts',
  '--no-file-parallelism',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${netlabFile}`,
];
const netlabLabel = 'real-TCP link tests (netlab)';
const netlabEnv = { ETHLE_NETLAB_TESTS: '1' };
const netlabBeside =
  want('netlab') && want('unit') && process.env.ETHLE_NETLAB_ALONE !== '1'
    ? stageBeside(`${netlabLabel}, beside the unit stage`, 'npx', netlabArgs, netlabFile, vitestTally, netlabEnv)
    : undefined;

if (want('unit')) {
  const file = join(out, 'vitest.json');
  stage(
    'unit + integration (vitest)',
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${file}`],
    file,
    vitestTally,
    // Three files at a time beside the netlab stage (vitest.config.ts's default is four).
    { ETHLE_VITEST_WORKERS: process.env.ETHLE_VITEST_WORKERS ?? '3' },
  );
}

if (want('netlab')) {
  if (netlabBeside) await netlabBeside();
  else stage(netlabLabel, 'npx', netlabArgs, netlabFile, vitestTally, netlabEnv);
}

// Lint finishes beside the unit and netlab stages; never beside the timing, soak or browser ones.
for (const collect of lintLane) await collect();

if (want('timing')) {
  // Receivers' playout timing and the relay's real-time scheduling (vitest.config.ts TIMING_TESTS): one file at a time.
  const file = join(out, 'vitest-timing.json');
  const { TIMING_TESTS } = await import('./test/timingTests.mjs');
  stage(
    'timing tests (vitest, one file at a time)',
    'npx',
    ['vitest', 'run', ...TIMING_TESTS, '--no-file-parallelism', '--reporter=default', '--reporter=json', `--outputFile=${file}`],
    file,
    vitestTally,
    { ETHLE_TIMING_TESTS: '1' },
  );
}

if (want('packages')) {
  // The published packages packed, installed into a blank project from the tarballs and used
  // (import, CLIs, tsc on their types): alone, as packing runs their prepack builds.
  const file = join(out, 'vitest-packages.json');
  stage(
    'packages (npm pack, install in a blank project, use)',
    'npx',
    ['vitest', 'run', 'scripts/test/packInstall.test.ts', '--reporter=default', '--reporter=json', `--outputFile=${file}`],
    file,
    vitestTally,
    { ETHLE_PACK_TESTS: '1' },
  );
}

if (want('soak')) {
  // The edge's short soak (built CLIs, 40 receivers, ~75 s with its settling): alone, as its goals
  // (no transfer cut, fds back) are the edge's under churn, not the box's under every test file.
  const file = join(out, 'vitest-soak.json');
  stage(
    'soak (short, alone)',
    'npx',
    ['vitest', 'run', 'packages/edge-node/test/soak.test.ts', '--reporter=default', '--reporter=json', `--outputFile=${file}`],
    file,
    vitestTally,
    { ETHLE_SOAK_TESTS: '1' },
  );
}

const hasSpecs = existsSync(join(root, 'e2e/tests')) && readdirSync(join(root, 'e2e/tests')).some((f) => f.endsWith('.spec.ts'));
if (want('e2e') && hasSpecs) {
  // Two runs: the browser specs three at a time (e2e/playwright.config.ts), then the
  // timing-sensitive ones (real kernel TCP through user-space relays; the probe's clock under
  // load) one at a time, with no other Chromium beside them.
  for (const project of ['browser', 'alone']) {
    const file = join(out, `playwright-${project}.json`);
    stage(
      `browser + end-to-end (Playwright, Debian Chromium): ${project}`,
      'npx',
      ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--project', project],
      file,
      playwrightTally,
      { ETHLE_PW_JSON: file },
    );
  }
}

if (flaky.length > 0) {
  // Passed on the retry: counted as passed, but never silently — each is a timing bar or a race to look at.
  console.log(`\nflaky (failed once, passed on the retry):`);
  for (const f of flaky) console.log(`  ${f}`);
}
if (failures.length > 0) {
  console.log(`\nfailed:`);
  for (const f of failures) console.log(`  ${f}`);
}
console.log(`\ntests: ${passed} passed${flaky.length ? ` (${flaky.length} on a retry)` : ''}, ${failed} failed`);
process.exit(broken || failed > 0 ? 1 : 0);
