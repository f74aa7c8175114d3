import { modelledTotal, unmodelledTotal } from '../accounting/accountLink.js';
import type { TestbedAccount } from '../testbed/createTestbed.js';

/**
 * One line of what a testbed's links and hosts counted, for the measuring scripts: unmodelled
 * drops (any means the figures above it measured the testbed's losses) with where they were,
 * modelled drops, each host's TCP retransmissions, and whether every link balanced.
 */
export function accountSummary(a: TestbedAccount): string {
  const dirs = (['ran', 'backhaul'] as const).flatMap((l) =>
    (['up', 'down'] as const).map((d) => ({ name: `${l} ${d}`, acc: a.links[l][d] })),
  );
  const where = dirs.flatMap(({ name, acc }) =>
    Object.entries(acc.unmodelled)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${name} ${k} ${n}`),
  );
  const unmodelled = dirs.reduce((x, d) => x + unmodelledTotal(d.acc), 0);
  const modelled = dirs.reduce((x, d) => x + modelledTotal(d.acc), 0);
  const retrans = (['origin', 'edge', 'client'] as const).map((h) => `${h} ${a.tcp[h].TcpRetransSegs ?? 0}`).join(', ');
  const balanced = !a.settled
    ? 'links not quiet: not balanced'
    : dirs.every((d) => d.acc.unaccounted === 0)
      ? 'every link balanced'
      : `UNACCOUNTED: ${dirs.map((d) => `${d.name} ${d.acc.unaccounted}`).join(', ')}`;
  return `account: ${unmodelled} unmodelled drops${where.length ? ` (${where.join(', ')})` : ''}, ${modelled} modelled; TCP retransmits ${retrans}; ${balanced}`;
}
