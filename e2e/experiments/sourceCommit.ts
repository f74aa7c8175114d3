import { execFileSync } from 'node:child_process';

/** The code a run ran: the checkout's commit, and whether tracked files differed from it. */
export interface SourceCommit {
  commit: string;
  dirty: boolean;
}

/**
 * The commit the checkout at `dir` is on (`git rev-parse HEAD`) and whether a tracked file differs
 * from it (`git status --porcelain --untracked-files=no`: results and other untracked files do not
 * count). Without it, runs from two versions of the edge are one cell of runs.csv. Undefined when
 * `dir` is not a git checkout or git is missing (a tarball, a packaged install): the run is still
 * written, without them. The experiments run as root in a checkout another user owns, which git
 * refuses as "dubious ownership" unless told (`safe.directory`, for these two reads only).
 */
export function sourceCommit(dir: string): SourceCommit | undefined {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'safe.directory=*', '-C', dir, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    });
  try {
    const commit = git('rev-parse', 'HEAD').trim();
    if (!/^[0-9a-f]{40,64}$/.test(commit)) return undefined;
    return { commit, dirty: git('status', '--porcelain', '--untracked-files=no').trim() !== '' };
  } catch {
    return undefined;
  }
}

/** How runs.csv writes it: the commit, `-dirty` after it when the tree differed; empty when unknown. */
export function commitLabel(c: { commit?: string; dirty?: boolean }): string {
  return c.commit === undefined ? '' : `${c.commit}${c.dirty === true ? '-dirty' : ''}`;
}
