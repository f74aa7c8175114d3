import { schemeColor } from '../data/schemeColor.js';

const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

/**
 * A group's colour in the fleet charts: by scheme, the scheme's own (as everywhere in the demo);
 * otherwise one from a palette by the group's place in the (sorted) list, so it is stable.
 */
export function groupColor(by: string, group: string, groups: readonly string[]): string {
  if (by === 'scheme') return schemeColor(group);
  const i = Math.max(0, groups.indexOf(group));
  return PALETTE[i % PALETTE.length]!;
}
