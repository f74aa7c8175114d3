import { readdirSync, readFileSync } from 'node:fs';

/** Each thread's time on a core so far (schedstat), ms, by thread id. */
export function threadRunMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      out.set(Number(tid), Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/**
 * Which threads were on a core over a window of `windowMs` (from two threadRunMs readings), the
 * busiest first, named where known ('receiving', 'sending'; others are Node's and V8's own): after
 * SIGXCPU, the one that ran nearly the whole window is the one that spun.
 */
export function spinReport(
  before: Map<number, number>,
  after: Map<number, number>,
  names: Record<number, string>,
  windowMs: number,
): string {
  const rows = [...after]
    .map(([tid, ms]) => ({ tid, ran: ms - (before.get(tid) ?? ms) }))
    .sort((a, b) => b.ran - a.ran)
    .slice(0, 3)
    .map(({ tid, ran }) => `${names[tid] ?? 'a Node/V8'} thread (tid ${tid}) ran ${ran.toFixed(1)} ms`);
  return `of the ${windowMs} ms after SIGXCPU: ${rows.join(', ') || 'no thread could be read'}`;
}
