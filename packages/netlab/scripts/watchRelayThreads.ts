// Watches every thread of every running relay (processes whose command line has relayMain.js) for
// the thing RLIMIT_RTTIME counts: time on a core since the thread last slept. The kernel resets
// that count only when a real-time thread wakes from a sleep, and each such sleep raises the
// thread's voluntary_ctxt_switches; so the CPU time (schedstat) a thread adds while that count
// stays put is its run without a blocking call. Prints each thread's longest such run at the end;
// when one passes --warn ms it prints, at once, the thread's state, policy, current syscall and
// kernel stack (and with --gdb MS, once, every thread's native stack: gdb stops the process for a
// moment). With --limit MS it lowers each real-time relay's soft RLIMIT_RTTIME to that, so a spin
// shorter than the testbed's 10 s ends the relay and its report names the thread.
// Run (root), beside whatever starts the relays, e.g. a smoke experiment:
//   chrt -f 80 npx tsx packages/netlab/scripts/watchRelayThreads.ts --seconds 240 --limit 2000
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '120' },
    every: { type: 'string', default: '5' },
    warn: { type: 'string', default: '150' },
    limit: { type: 'string' },
    gdb: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const warnMs = Number(values.warn);
const limitMs = values.limit === undefined ? undefined : Number(values.limit);
const gdbMs = values.gdb === undefined ? undefined : Number(values.gdb);
const t0 = Date.now();
const at = () => `${((Date.now() - t0) / 1000).toFixed(2)} s`;
const read = (f: string) => {
  try {
    return readFileSync(f, 'utf8');
  } catch {
    return '';
  }
};
/** Fields of /proc/…/stat after the command name (field 3 onwards). */
const statFields = (text: string) => text.slice(text.lastIndexOf(')') + 2).split(' ');

interface Thread {
  comm: string;
  switches: number;
  runMs: number;
  runAtSwitch: number;
  wallAtSwitch: number;
  worstMs: number;
  worstAt: string;
  warned: boolean;
}
const threads = new Map<string, Thread>();
const limited = new Set<string>();
let gdbDone = false;

function relayPids(): string[] {
  const pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && read(`/proc/${p}/cmdline`).includes('relayMain.js'));
  for (const pid of pids) {
    // Only once the testbed has made it real-time (its own prlimit comes first), then only the soft limit.
    if (limitMs === undefined || limited.has(pid) || Number(statFields(read(`/proc/${pid}/stat`))[38]) !== 1) continue;
    limited.add(pid);
    try {
      execFileSync('prlimit', [`--pid=${pid}`, `--rttime=${Math.round(limitMs * 1000)}:`]);
      console.log(`${at()}: relay ${pid}: soft RLIMIT_RTTIME ${limitMs} ms`);
    } catch (e) {
      console.log(`${at()}: relay ${pid}: prlimit failed (${(e as Error).message.slice(0, 120)})`);
    }
  }
  return pids;
}

function sample(pids: string[]): void {
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const dir = `/proc/${pid}/task/${tid}`;
      const schedstat = read(`${dir}/schedstat`);
      const status = read(`${dir}/status`);
      const switches = /\nvoluntary_ctxt_switches:\s+(\d+)/.exec(status);
      if (!schedstat || !switches) continue;
      const runMs = Number(schedstat.split(' ')[0]) / 1e6;
      const key = `${pid}/${tid}`;
      const t = threads.get(key);
      if (!t) {
        const comm = /Name:\s+(.*)/.exec(status)?.[1] ?? '?';
        threads.set(key, {
          comm,
          switches: Number(switches[1]),
          runMs,
          runAtSwitch: runMs,
          wallAtSwitch: Date.now(),
          worstMs: 0,
          worstAt: '',
          warned: false,
        });
        continue;
      }
      if (Number(switches[1]) !== t.switches) {
        t.switches = Number(switches[1]);
        t.runAtSwitch = runMs;
        t.wallAtSwitch = Date.now();
        t.warned = false;
      }
      t.runMs = runMs;
      const run = runMs - t.runAtSwitch;
      if (run > t.worstMs) [t.worstMs, t.worstAt] = [run, at()];
      if (run > warnMs && !t.warned) {
        t.warned = true;
        const f = statFields(read(`${dir}/stat`));
        console.log(
          `${at()}: ${key} (${t.comm}) ran ${run.toFixed(0)} ms in ${Date.now() - t.wallAtSwitch} ms without sleeping; state ${f[0]}, policy ${f[38]}, ` +
            `priority ${f[15]}; syscall ${read(`${dir}/syscall`).trim()}; kernel stack: ${read(`${dir}/stack`).split('\n').slice(0, 6).join(' | ')}`,
        );
      }
      if (gdbMs !== undefined && run > gdbMs && !gdbDone) {
        gdbDone = true;
        try {
          const out = execFileSync('timeout', ['20', 'gdb', '-p', pid, '-batch', '-ex', 'info threads', '-ex', 'thread apply all bt 12'], {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          console.log(
            out
              .split('\n')
              .filter((l) => /^(Thread|#|\*| +\d)/.test(l))
              .join('\n'),
          );
        } catch (e) {
          console.log(`gdb failed: ${(e as Error).message.slice(0, 200)}`);
        }
      }
    }
  }
}

let pids = relayPids();
let scanned = Date.now();
const timer = setInterval(() => {
  if (Date.now() - scanned > 200) [pids, scanned] = [relayPids(), Date.now()];
  sample(pids);
}, Number(values.every));
const report = () => {
  clearInterval(timer);
  const worst = [...threads.entries()].sort((a, b) => b[1].worstMs - a[1].worstMs).slice(0, 12);
  for (const [key, t] of worst)
    console.log(
      `${key} ${t.comm}: longest run without sleeping ${t.worstMs.toFixed(1)} ms (at ${t.worstAt}); ${t.runMs.toFixed(0)} ms on a core in all`,
    );
  process.exit(0);
};
setTimeout(report, seconds * 1000);
process.on('SIGINT', report);
process.on('SIGTERM', report);
