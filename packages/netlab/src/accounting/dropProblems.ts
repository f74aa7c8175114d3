import type { LinkAccount, UnmodelledDrops } from './accountLink.js';

/** Which host is on side a and side b of each testbed link. */
export const LINK_SIDES: Readonly<Record<string, { a: string; b: string }>> = {
  ran: { a: 'client', b: 'edge' },
  backhaul: { a: 'edge', b: 'origin' },
};

/** A place one link direction lost packets the link does not model. */
export interface DropProblem {
  link: string;
  dir: 'up' | 'down';
  where: keyof UnmodelledDrops | 'unaccounted';
  packets: number;
  /** Where it lost what, and what to do: one line for a run's log. */
  message: string;
}

/** Where each counter sits, and what to do about it; `from`/`to`: the sending and receiving hosts. */
const WHAT: Record<keyof UnmodelledDrops, (from: string, to: string) => string> = {
  tunTx: (from) =>
    `at the ${from}'s TUN queue (txqueuelen full: its socat read more slowly than the ${from} sent) — raise txqueuelen (netlab linkBuffers) or find what kept that socat from a CPU`,
  qdisc: (from) => `at the ${from}'s qdisc on its TUN — raise txqueuelen (netlab linkBuffers)`,
  relaySocket: () =>
    `at the relay's receiving socket (its buffer overflowed: the relay read more slowly than the socat wrote) — raise the socket buffers (netlab linkBuffers, capped by net.core.rmem_max) or find what kept the relay from a CPU`,
  ring: () =>
    `in the relay, between its threads (its sending thread fell a whole queue behind) — the box stalled the relay: run on a quieter machine`,
  socatSocket: (_from, to) =>
    `at the ${to}'s socat's receiving socket (its buffer overflowed: it wrote to its TUN more slowly than the relay sent) — raise the socket buffers (netlab linkBuffers) or find what kept that socat from a CPU`,
  tunRx: (_from, to) => `at the ${to}'s TUN, which refused them (rx_dropped) — see the kernel log`,
};

/**
 * Every place a link lost packets it does not model, from the links' accounts (accountLink):
 * empty when all loss on the links was the emulated network's own. A non-zero `unaccounted`
 * (packets that entered and neither arrived nor were counted anywhere) is one too.
 */
export function dropProblems(
  links: Record<string, LinkAccount>,
  sides: Record<string, { a: string; b: string }> = LINK_SIDES,
): DropProblem[] {
  const out: DropProblem[] = [];
  for (const [link, account] of Object.entries(links)) {
    const side = sides[link] ?? { a: `${link} side a`, b: `${link} side b` };
    for (const dir of ['up', 'down'] as const) {
      const d = account[dir];
      const [from, to] = dir === 'up' ? [side.a, side.b] : [side.b, side.a];
      for (const where of Object.keys(WHAT) as (keyof UnmodelledDrops)[]) {
        const packets = d.unmodelled[where];
        if (packets > 0)
          out.push({ link, dir, where, packets, message: `${link} ${dir} lost ${packets} packets ${WHAT[where](from, to)}` });
      }
      if (d.unaccounted !== undefined && d.unaccounted !== 0) {
        out.push({
          link,
          dir,
          where: 'unaccounted',
          packets: d.unaccounted,
          message: `${link} ${dir}: ${d.entered} packets entered, ${d.delivered} arrived, and ${d.unaccounted} are neither counted as dropped nor in flight — a place the accounting does not see (docs/netlab.md, "Where a packet can be lost")`,
        });
      }
    }
  }
  return out;
}
