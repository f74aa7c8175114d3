import type { Series } from './timelineRows.js';

/**
 * One colour per timeline series. The players' series take their scheme's colour (schemeColor):
 * direct is e2e's red; the edge player's is set from the edge's scheme by mountTimeline.
 */
export const SERIES_COLORS: Record<Series, string> = {
  'produced at the origin': '#7f7f7f',
  'held at the edge (listed → visible)': '#9ecae1',
  'edge prefetch': '#e6ab02',
  'direct player: request → received': '#d62728',
  'edge player: request → received': '#2ca02c',
  'stalls / outage': '#111111',
};
