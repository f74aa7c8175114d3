import type { Testbed } from '@ethle/netlab';

/** Resolves once a process in the testbed prints a line matching `re` (its start banner). */
export async function waitForLine(p: ReturnType<Testbed['spawn']>, re: RegExp, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start: ${out}`)), 20_000);
    const on = (c: Buffer) => {
      out += c.toString();
      if (re.test(out)) {
        clearTimeout(timer);
        p.stdout!.off('data', on);
        resolve();
      }
    };
    p.stdout!.on('data', on);
    p.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    p.once('exit', (c) => reject(new Error(`${what} exited with ${c}: ${out}`)));
  });
}

/** Fetches a URL from inside a host's namespace (the harness has no route into the namespaces). */
export async function fetchIn(tb: Testbed, host: 'edge' | 'origin' | 'client', url: string): Promise<string> {
  return tb.exec(host, process.execPath, ['-e', `fetch(${JSON.stringify(url)}).then(r=>r.text()).then(t=>process.stdout.write(t))`]);
}

/** Sum of every series of `name` (not its _bucket etc.) whose labels include `labels`. */
export function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const rest = line.startsWith(name) ? line.slice(name.length) : '';
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    if (Object.entries(labels).every(([k, v]) => rest.includes(`${k}="${v}"`))) sum += Number(line.split(' ').at(-1));
  }
  return sum;
}

export function metric(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    const v = Number(line.split(' ').at(-1));
    if (Number.isFinite(v)) return v;
  }
  return undefined;
}
